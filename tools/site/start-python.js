// The static site's Python start, in the kernel's worker: the kernel loads this script as its
// Pyodide (`pyodideUrl`) and calls loadPyodide(options). It loads Pyodide's own script, then
// restores the Python that tools/site/snapshot.mjs made at build time (IPython, ipywidgets, the
// kernel and the lessons' modules already imported), gives it back the JavaScript objects it
// holds by name, and writes its site-packages and home folder back, instead of starting Python
// and unpacking the packages at every visit.
// Python starts afresh instead, and imports from the same files (the same pages, slower), when
// the memory does not restore, or when the browser cannot unpack the file before Python starts
// (no DecompressionStream: Safari before 16.4, Firefox before 113); Python then unpacks it.
"use strict";

(function () {
  const SNAPSHOT = "python-snapshot.gz";
  const UNPACKED = "/tmp/python-snapshot";

  const gzipped = (bytes) => bytes[0] === 0x1f && bytes[1] === 0x8b;

  async function gunzip(bytes) {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  // The file's parts: a uint32 n, n bytes of JSON header, the memory, the files' bytes.
  function parts(data) {
    const size = new DataView(data.buffer, data.byteOffset).getUint32(0, true);
    const header = JSON.parse(new TextDecoder().decode(data.subarray(4, 4 + size)));
    const start = 4 + size;
    return { header, data, memory: data.subarray(start, start + header.memory),
             filesStart: start + header.memory };
  }

  // The JavaScript objects the snapshot's Python holds, by name (snapshot.mjs): Pyodide's API
  // object and its functions, which exist only once loadPyodide returns (`api.now`).
  function apiObjects(api) {
    return ({ api: name }) => (name === null
      ? new Proxy({}, { get: (_, key) => api.now[key], has: (_, key) => key in api.now })
      : function (...args) {
        return api.now[name].apply(api.now, args);
      });
  }

  function writeFiles(pyodide, { header, data, filesStart }) {
    const { FS } = pyodide;
    for (const dir of header.dirs) FS.mkdirTree(dir);
    const made = new Set(header.dirs);
    let offset = filesStart;
    for (const [file, size] of header.files) {
      const dir = file.slice(0, file.lastIndexOf("/"));
      if (!made.has(dir)) {
        FS.mkdirTree(dir);
        made.add(dir);
      }
      FS.writeFile(file, data.subarray(offset, offset + size));
      offset += size;
    }
    for (const name of header.packages) pyodide.loadedPackages[name] = "snapshot";
  }

  // Python started afresh unpacks the file with its own gzip module.
  function unpackedByPython(pyodide, bytes) {
    pyodide.FS.writeFile(`${UNPACKED}.gz`, bytes);
    pyodide.runPython(`
import gzip, os, shutil
with gzip.open("${UNPACKED}.gz") as packed, open("${UNPACKED}", "wb") as out:
    shutil.copyfileobj(packed, out)
os.remove("${UNPACKED}.gz")`);
    const data = pyodide.FS.readFile(UNPACKED);
    pyodide.FS.unlink(UNPACKED);
    return parts(data);
  }

  async function startPython(options) {
    importScripts(options.indexURL + "pyodide.js");
    const load = self.loadPyodide;
    self.loadPyodide = startPython;
    // The snapshot's files hold every package: none is loaded from the (empty) lock file.
    const { packages: _packages, ...rest } = options;
    const url = options.indexURL + SNAPSHOT;
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    // A web host may have sent the file already unpacked (Content-Encoding: gzip).
    const bytes = new Uint8Array(await response.arrayBuffer());
    let pyodide;
    let snapshot;
    if (gzipped(bytes) && typeof DecompressionStream === "undefined") {
      console.warn("Python starts afresh: this browser cannot unpack the site's snapshot");
      pyodide = await load(rest);
      snapshot = unpackedByPython(pyodide, bytes);
    } else {
      snapshot = parts(gzipped(bytes) ? await gunzip(bytes) : bytes);
      try {
        const api = {};
        pyodide = await load({ ...rest, _loadSnapshot: snapshot.memory,
                               _snapshotDeserializer: apiObjects(api) });
        api.now = pyodide;
        console.info("Python restored from the site's snapshot");
      } catch (error) {
        console.warn(`Python starts afresh: the site's snapshot did not restore (${error})`);
        pyodide = await load(rest);
      }
    }
    writeFiles(pyodide, snapshot);
    // the snapshot's random state is every visitor's: each page draws its own
    pyodide.runPython("import random; random.seed()");
    return pyodide;
  }

  self.loadPyodide = startPython;
})();
