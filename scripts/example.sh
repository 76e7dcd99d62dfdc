#!/usr/bin/env bash
# Set up (a virtual environment in .venv) and run the main job on the bundled example: the
# crosstable of a real event (9. Karl-Mala-Gedenkturnier, Frankfurt 2005, 284 players) is
# recalculated headless, every FIDE figure filled in, into out/.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${FIDE_VENV:-.venv}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check -e '.[workbook]' 2>&1 \
  | grep -v "^WARNING: Location" || true
"$venv/bin/fide-rating" recalc examples/karl-mala-gedenkturnier-2005.xlsx -o out --force \
  --csv out/karl-mala-gedenkturnier-2005.csv
echo
echo "The command is installed in the virtual environment: $venv/bin/fide-rating"
echo "  $venv/bin/fide-rating --help                  # its commands"
echo "  source $venv/bin/activate                     # then type it as: fide-rating ..."
