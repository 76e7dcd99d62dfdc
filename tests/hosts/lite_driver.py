"""Call the FIDE functions of the xlwings Lite bundle through xlwings' own Office.js code.

Imported in real Pyodide (tests/hosts/lite/run.mjs) and, for comparison, in CPython
(tests/test_xlwings_lite.py): ``main`` is the bundle from ``fide-rating build-lite``; each call
goes through ``custom_functions_call``, the function xlwings' Office.js runtimes call with the
arguments Excel hands over. Prints one JSON document: versions, the custom-functions metadata
and, per call, the value returned to Excel or the error raised (which the runtime shows as
#VALUE! with the message on hover).
"""

from __future__ import annotations

import json
import sys
from typing import Any


async def run(cases: Any) -> str:
    import main  # type: ignore[import-not-found]  # the workbook's main.py: the bundle
    import xlwings
    from xlwings.pro import udfs_officejs

    if hasattr(cases, "to_py"):  # a JS array: convert as Pyodide does for the runtime
        cases = cases.to_py()
    results: list[dict[str, Any]] = []
    for name, args in cases:
        data = {
            "func_name": name,
            "args": args,
            "caller_address": "[Book1]Sheet1!A1",
            "formula_name": name,
            "version": xlwings.__version__,
            "client": "Office.js",
            "runtime": "1.4",
            "content_language": "en-US",
        }
        try:
            value = await udfs_officejs.custom_functions_call(data, main)
            results.append({"value": value})
        except Exception as error:  # what the runtime turns into #VALUE! with the message
            results.append({"error": str(error), "type": type(error).__name__})
    return json.dumps(
        {
            "python": sys.version.split()[0],
            "platform": sys.platform,
            "xlwings": xlwings.__version__,
            "meta": udfs_officejs.custom_functions_meta(main),  # type: ignore[no-untyped-call]
            "results": results,
        }
    )


if __name__ == "__main__":  # CPython: the cases as JSON on stdin, the bundle's folder first
    import asyncio

    sys.path.insert(0, sys.argv[1])
    print(asyncio.run(run(json.load(sys.stdin))))
