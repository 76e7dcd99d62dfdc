// Load the xlwings Lite bundle (main.py) in real Pyodide, with xlwings' pure-Python wheel,
// the way the Lite runtime does, and run tests/hosts/lite_driver.py in it.
// usage: node run.mjs WHEEL MAIN_PY DRIVER_PY CASES_JSON  -> the driver's JSON on stdout
import { loadPyodide } from "pyodide";
import fs from "node:fs";

const [wheel, mainPy, driverPy, casesJson] = process.argv.slice(2);
const py = await loadPyodide({
  // what the Lite runtime sets: the server-side decorators and its free licence
  env: { HOME: "/home/pyodide", XLWINGS_ON_SERVER: "true", XLWINGS_LICENSE_KEY: "noncommercial" },
});
py.unpackArchive(new Uint8Array(fs.readFileSync(wheel)), "wheel");
py.FS.mkdirTree("/home/pyodide/workbook");
py.FS.writeFile("/home/pyodide/workbook/main.py", fs.readFileSync(mainPy));
py.FS.writeFile("/home/pyodide/lite_driver.py", fs.readFileSync(driverPy));
// the calls as Office.js builds them: JS arrays, null for blanks and omitted arguments
const cases = JSON.parse(fs.readFileSync(casesJson, "utf8"));
py.globals.set("CASES", py.toPy(cases));
py.globals.set("JS_CASES", cases);
const out = await py.runPythonAsync(`
import sys
sys.path[:0] = ["/home/pyodide", "/home/pyodide/workbook"]
import lite_driver
await lite_driver.run(JS_CASES)
`);
process.stdout.write(out);
