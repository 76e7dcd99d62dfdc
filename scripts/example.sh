#!/usr/bin/env bash
# Set up (a virtual environment in .venv) and run the main job on the bundled example.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${FIDE_VENV:-.venv}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check -e . 2>&1 \
  | grep -v "^WARNING: Location" || true
# The public 2022 example of the one-upgrade rule: a 2000 player, K 20, seven games.
"$venv/bin/fide-rating" event 2000 --opponents 1063,1299,1413,1872,1851,1427,1682 \
  --results 1,1,1,=,0,1,1 -k 20 --edition 2022-01
