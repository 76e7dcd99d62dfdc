#!/usr/bin/env bash
# Rebuild every generated file of the release from these sources, in the order they depend on
# each other: the generated host modules (xlwings, Calc IDL/XCU, the README's function table),
# release/fide-rating.oxt, release/xlwings-lite/main.py, the crosstable templates in templates/
# (.xlsx; their .ods copies where an .xlsx changed or the copy is missing), the macro workbooks
# for classic xlwings in release/xlwings-classic/ and the wheel in release/. Every build but the
# .ods is reproducible: run it twice and nothing changes. Needs what the test command sets up
# (LibreOffice 25.2 with the SDK). Then commit what changed; the tests name any stale file.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${FIDE_VENV:-.venv}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check -e '.[test]' 2>&1 \
  | grep -v "^WARNING: Location" || true
fr="$venv/bin/fide-rating"
echo "== generated host modules and the README's function table"
"$venv/bin/python" -m fide_rating.cells.generate
echo "== release/fide-rating.oxt"
"$fr" build-oxt -o release/fide-rating.oxt --force
echo "== release/xlwings-lite/main.py"
"$fr" build-lite -o release/xlwings-lite/main.py --force
echo "== templates/"
kept=$(mktemp -d)
trap 'rm -rf "$kept"' EXIT
for book in templates/*.xlsx; do
  [ -f "${book%.xlsx}.ods" ] && cp -p "${book%.xlsx}.ods" "$kept/" && sha256sum "$book" > "$kept/$(basename "$book").sha"
done
"$fr" template --all -o templates --force >/dev/null
stale=0
for book in templates/*.xlsx; do
  sum="$kept/$(basename "$book").sha"
  [ -f "$sum" ] && sha256sum --status -c "$sum" || stale=1
done
if [ "$stale" = 1 ]; then
  echo "   the .ods copies (LibreOffice), kept where their .xlsx is unchanged"
  "$fr" template --all -o templates --force --ods >/dev/null
  for book in templates/*.xlsx; do
    sum="$kept/$(basename "$book").sha"
    if [ -f "$sum" ] && sha256sum --status -c "$sum"; then
      cp -p "$kept/$(basename "${book%.xlsx}.ods")" templates/
    fi
  done
fi
echo "== release/xlwings-classic/"
"$fr" template --all --xlsm -o release/xlwings-classic --force >/dev/null
echo "== the wheel in release/"
rm -f release/fide_rating-*.whl
"$venv/bin/python" scripts/build_wheel.py -o release
git status --short -- release templates README.md addin 2>/dev/null || true
