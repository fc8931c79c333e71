// The static site's started Python, made once at build time (tools/build_site.py runs it with
// Node.js): the Pyodide runtime in `runtime`, its packages loaded, the lessons' modules imported,
// then its memory and its site-packages written to one gzip file. start-python.js restores it
// in the page's kernel, which then skips starting Python and importing IPython, ipywidgets and
// the lessons' code at every visit.
//
//   node snapshot.mjs RUNTIME_DIR IMPORTS_PY OUT_GZ PACKAGE...
//
// The file: a little-endian uint32 n, n bytes of JSON header (padded with spaces so that the
// memory starts on a 16-byte boundary), the memory, then every file's bytes in header order.
// Header: {"memory": bytes, "packages": [names], "dirs": [paths], "files": [[path, bytes]]}:
// site-packages and the home folder (IPython's profile), as Python left them.
// The JavaScript objects that Python holds must be found again in the page: the global ones
// by their path from the global object (Pyodide's own bookkeeping), and Pyodide's API object
// and its functions (the kernel's `pyodide_js.loadPackagesFromImports`) by name here, as
// {"api": null} or {"api": name}; start-python.js gives them back. Any other object stops the
// build (no import may keep one: micropip, which holds several, is not in the snapshot).

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";

const [runtime, importsFile, out, ...packages] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(runtime, "pyodide.mjs")).href);
const indexURL = path.resolve(runtime) + "/";
const py = await loadPyodide({ indexURL, _makeSnapshot: true });
const errors = [];
await py.loadPackage(packages, { messageCallback: () => {}, errorCallback: (m) => errors.push(m) });
if (errors.length) throw new Error(`loading the packages: ${errors.join("; ")}`);
// The imports' script leaves, as JSON, the byte-code files that no later import reads (the
// modules it imported): they stay out of the file.
const imported = new Set(JSON.parse(py.runPython(fs.readFileSync(importsFile, "utf8"))));
// The packages are loaded again from the file's copies: the runtime's record of them (a
// JavaScript object the snapshot checks is empty) starts empty.
const loaded = Object.keys(py.loadedPackages);
for (const name of loaded) delete py.loadedPackages[name];
const apiNames = Object.getOwnPropertyNames(py);
const serializer = (obj) => {
  if (obj === py) return { api: null };
  const name = apiNames.find((k) => {
    try {
      return py[k] === obj;
    } catch {
      return false;
    }
  });
  if (name === undefined) {
    throw new Error(`the snapshot holds a JavaScript object it cannot name: ${String(obj)}`);
  }
  return { api: name };
};
const memory = py.makeMemorySnapshot({ serializer });

const roots = JSON.parse(py.runPython(
  "import json, os, site; json.dumps([site.getsitepackages()[0], os.path.expanduser('~')])"));
const dirs = [];
const files = [];
const walk = (dir) => {
  dirs.push(dir);
  for (const name of py.FS.readdir(dir).sort()) {
    if (name === "." || name === "..") continue;
    const p = `${dir}/${name}`;
    if (py.FS.isDir(py.FS.stat(p).mode)) walk(p);
    else if (!imported.has(p)) files.push([p, py.FS.readFile(p)]);
  }
};
roots.forEach(walk);

const encoder = new TextEncoder();
let header = JSON.stringify({ memory: memory.length, packages: loaded, dirs,
                              files: files.map(([p, data]) => [p, data.length]) });
while ((4 + encoder.encode(header).length) % 16) header += " ";
const headerBytes = encoder.encode(header);
const size = new Uint8Array(4);
new DataView(size.buffer).setUint32(0, headerBytes.length, true);
const whole = Buffer.concat([size, headerBytes, memory, ...files.map(([, data]) => data)]);
fs.writeFileSync(out, zlib.gzipSync(whole, { level: 9 }));
console.log(JSON.stringify({ memory: memory.length, files: files.length,
                             bytes: whole.length, gzip: fs.statSync(out).size }));
