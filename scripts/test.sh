#!/usr/bin/env bash
# Set up (a virtual environment in .venv, and what the tests need) and run every check.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${FIDE_VENV:-.venv}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check -e '.[test,corpus]' 2>&1 \
  | grep -v "^WARNING: Location" || true
echo "== LibreOffice 25.2 (for the Calc add-in tests)"
if ! bash scripts/install-libreoffice.sh; then
  if [ "${CI:-}" = "true" ]; then
    echo "LibreOffice 25.2 could not be installed, and CI runs its tests" >&2
    exit 1
  fi
  echo "LibreOffice 25.2 is not installed: its tests will be skipped"
fi
echo "== xlwings Lite test set-up (Pyodide from npm, the xlwings wheel from PyPI)"
if command -v npm >/dev/null; then
  [ -d tests/hosts/lite/node_modules/pyodide ] || npm ci --prefix tests/hosts/lite --no-audit --no-fund --silent
else
  echo "npm is not installed: the xlwings Lite tests will be skipped (CI fails them)"
fi
xlwings_version=$("$venv/bin/python" -c "import importlib.metadata as m; print(m.version('xlwings'))")
[ -f ".cache/wheels/xlwings-$xlwings_version-py3-none-any.whl" ] || "$venv/bin/python" -m pip download \
  -q --disable-pip-version-check --no-deps --only-binary=:all: --platform any \
  --python-version 3.13 -d .cache/wheels "xlwings==$xlwings_version" 2>&1 | grep -v "^WARNING: Location" || true
echo "== ruff"
"$venv/bin/ruff" check .
"$venv/bin/ruff" format --check .
echo "== import contracts (pyproject.toml: the layers point down)"
"$venv/bin/lint-imports" --no-cache
echo "== mypy --strict"
"$venv/bin/mypy" --strict addin tests benchmarks scripts
echo "== pytest"; "$venv/bin/python" -m pytest "$@"
