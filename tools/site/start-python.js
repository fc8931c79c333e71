// The static site's Python start, in the kernel's worker: the kernel loads this script as its
// Pyodide (`pyodideUrl`) and calls loadPyodide(options). It loads Pyodide's own script, then
// restores the Python that tools/site/snapshot.mjs made at build time (IPython, ipywidgets, the
// kernel and the lessons' modules already imported), gives it back the JavaScript objects it
// holds by name, and writes its site-packages and home folder back, instead of starting Python
// and unpacking the packages at every visit.
// The file (14 MB packed, 47 MB unpacked) is fetched and unpacked by a worker of its own while
// Pyodide's script loads: it hands over the memory and the files in two arrays, and the browser
// frees everything the unpacking left behind when that worker ends (its pieces, some 60 MB,
// would otherwise stay in the kernel's worker until its next garbage collection). Once Python is
// restored from the memory's array (36 MB), the array goes back to that worker, which then ends:
// the browser frees it at once, where an array received from another worker and merely dropped
// stays until this worker's next garbage collection, tens of seconds later (the loader's
// settings would even keep it for as long as the page is open). The files' array holds the
// files. The same worker compiles Pyodide's WebAssembly (10 MB) meanwhile and hands over the
// compiled module, which Pyodide then instantiates instead of fetching and compiling the file
// itself: compiling it keeps pieces of the file (some 13 MB) until the compiling worker's next
// garbage collection, and that worker ends.
// Python starts afresh instead, and imports from the same files (the same pages, slower), when
// the memory does not restore, or when the browser cannot unpack the file before Python starts
// (no DecompressionStream: Safari before 16.4, Firefox before 113); Python then unpacks it.
"use strict";

(function () {
  const SNAPSHOT = "python-snapshot.gz";
  const RUNTIME = "pyodide.asm.wasm";
  const UNPACKED = "/tmp/python-snapshot";

  // The snapshot at `url`, unpacked as it arrives: {header, memory, files} (the memory and
  // every file's bytes one after the other, in arrays of their own), or {packed} (its bytes)
  // when it is gzipped and this browser cannot unpack it. The file: a little-endian uint32 n,
  // n bytes of JSON header, the memory, then every file's bytes in header order. A web host may
  // have sent it already unpacked (Content-Encoding: gzip). Self-contained: it runs in a worker
  // of its own (its source is that worker's script).
  async function unpackSnapshot(url) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    let reader = response.body.getReader();
    let chunk = new Uint8Array(0);
    let at = 0;
    const next = async () => {
      const { done, value } = await reader.read();
      if (done) return false;
      chunk = value;
      at = 0;
      return true;
    };
    const fill = async (target) => {
      let filled = 0;
      while (filled < target.length) {
        if (at === chunk.length && !(await next())) throw new Error(`${url} ends early`);
        const n = Math.min(chunk.length - at, target.length - filled);
        target.set(chunk.subarray(at, at + n), filled);
        filled += n;
        at += n;
      }
      return target;
    };
    const head = await fill(new Uint8Array(2));
    if (head[0] === 0x1f && head[1] === 0x8b) {
      const raw = reader;
      const rest = chunk.subarray(at);
      if (typeof DecompressionStream === "undefined") {
        const pieces = [head, rest];
        for (let got = await raw.read(); !got.done; got = await raw.read()) pieces.push(got.value);
        const packed = new Uint8Array(pieces.reduce((n, piece) => n + piece.length, 0));
        pieces.reduce((to, piece) => (packed.set(piece, to), to + piece.length), 0);
        return { packed };
      }
      // the bytes read so far, then the rest of the response, unpacked
      const packed = new ReadableStream({
        start(controller) {
          controller.enqueue(head.slice());
          if (rest.length) controller.enqueue(rest);
        },
        async pull(controller) {
          const { done, value } = await raw.read();
          if (done) controller.close();
          else controller.enqueue(value);
        },
      });
      reader = packed.pipeThrough(new DecompressionStream("gzip")).getReader();
      chunk = new Uint8Array(0);
      at = 0;
      await fill(head);
    }
    const sizeBytes = new Uint8Array(4);
    sizeBytes.set(head);
    await fill(sizeBytes.subarray(2));
    const size = new DataView(sizeBytes.buffer).getUint32(0, true);
    const header = JSON.parse(new TextDecoder().decode(await fill(new Uint8Array(size))));
    const memory = await fill(new Uint8Array(header.memory));
    const files = await fill(new Uint8Array(header.files.reduce((n, [, bytes]) => n + bytes, 0)));
    reader.cancel().catch(() => {});
    return { header, memory, files };
  }

  // Pyodide's WebAssembly at `url`, compiled (null when this browser cannot compile it here).
  // Self-contained, as unpackSnapshot.
  async function compileRuntime(url) {
    try {
      return await WebAssembly.compileStreaming(fetch(url));
    } catch (error) {
      return null;
    }
  }

  // unpackSnapshot(url) in a worker of its own, with Pyodide's WebAssembly at `runtimeUrl`
  // compiled there too: its arrays, the compiled module (`runtime`, null when it could not be
  // compiled or handed over), and `giveBack(buffers)`, which hands `buffers` back to that worker
  // (moved, not copied) and ends it (the promise's `compiling` is true); the snapshot unpacked in
  // this worker, and no module, when the browser starts no worker from a worker (or refuses
  // this one).
  function unpackedElsewhere(url, runtimeUrl) {
    if (typeof Worker === "undefined") return unpackSnapshot(url);
    const source = `"use strict";\nconst unpackSnapshot = ${unpackSnapshot};\n`
      + `const compileRuntime = ${compileRuntime};\n`
      + "onmessage = async (event) => {\n"
      + "  if (!event.data || !event.data.snapshot) return; // its arrays given back: it ends\n"
      + "  try {\n"
      + "    const runtime = compileRuntime(event.data.runtime);\n"
      + "    const got = await unpackSnapshot(event.data.snapshot);\n"
      + "    const moved = [got.packed || got.memory, got.files].filter(Boolean)"
      + ".map((a) => a.buffer);\n"
      + "    got.runtime = await runtime;\n"
      + "    try {\n"
      + "      postMessage(got, moved);\n"
      + "    } catch (error) { // a compiled module this browser cannot hand to another worker\n"
      + "      got.runtime = null;\n"
      + "      postMessage(got, moved);\n"
      + "    }\n"
      + "  } catch (error) {\n"
      + "    postMessage({ error: String(error) });\n"
      + "  }\n"
      + "};\n";
    const script = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    let worker;
    try {
      worker = new Worker(script);
    } catch (error) { // a worker from a blob: address refused (a web host's security policy)
      URL.revokeObjectURL(script);
      return unpackSnapshot(url);
    }
    const got = new Promise((resolve, reject) => {
      const end = () => {
        worker.terminate();
        URL.revokeObjectURL(script);
      };
      worker.onmessage = ({ data }) => {
        if (data.error) {
          end();
          reject(new Error(data.error));
          return;
        }
        data.giveBack = (buffers) => {
          try {
            worker.postMessage(null, buffers);
          } finally {
            end();
          }
        };
        resolve(data);
      };
      worker.onerror = (event) => {
        event.preventDefault();
        end();
        resolve(unpackSnapshot(url)); // that worker could not run: this one unpacks the file
      };
      worker.postMessage({ snapshot: url, runtime: runtimeUrl });
    });
    got.compiling = true; // that worker compiles the WebAssembly too
    return got;
  }

  // The parts of the whole unpacked file, as unpackSnapshot gives them (the files copied out:
  // the whole file is not kept for them).
  function parts(data) {
    const size = new DataView(data.buffer, data.byteOffset).getUint32(0, true);
    const header = JSON.parse(new TextDecoder().decode(data.subarray(4, 4 + size)));
    const start = 4 + size;
    return { header, memory: data.subarray(start, start + header.memory),
             files: data.slice(start + header.memory) };
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

  // Each file's contents are its part of the files' array (no copy).
  function writeFiles(pyodide, { header, files }) {
    const { FS } = pyodide;
    for (const dir of header.dirs) FS.mkdirTree(dir);
    const made = new Set(header.dirs);
    let offset = 0;
    for (const [file, size] of header.files) {
      const dir = file.slice(0, file.lastIndexOf("/"));
      if (!made.has(dir)) {
        FS.mkdirTree(dir);
        made.add(dir);
      }
      FS.writeFile(file, files.subarray(offset, offset + size), { canOwn: true });
      offset += size;
    }
    for (const name of header.packages) pyodide.loadedPackages[name] = "snapshot";
  }

  // Pyodide's fetch of its WebAssembly at `runtimeUrl` and its instantiateStreaming, answered
  // by the module the unpacking worker compiled (`runtime` of what `unpacked` gives): the file
  // is then neither fetched nor compiled in this worker. Without a module Pyodide fetches and
  // compiles it itself. Each is answered once; the function returned puts both back.
  function compiledElsewhere(unpacked, runtimeUrl) {
    const ownFetch = self.fetch;
    const ownInstantiate = WebAssembly.instantiateStreaming;
    const module = unpacked.then((got) => got.runtime || null, () => null);
    const address = (resource) => {
      try {
        return new URL(String((resource && resource.url) || resource), self.location).href;
      } catch (error) { // not an address: the browser's fetch refuses it as it would
        return null;
      }
    };
    const runtime = new URL(runtimeUrl, self.location).href;
    self.fetch = function fetch(resource, init) {
      if (address(resource) !== runtime) return ownFetch.call(self, resource, init);
      self.fetch = ownFetch;
      return module.then((m) => (m ? new Response(null) : ownFetch.call(self, resource, init)));
    };
    WebAssembly.instantiateStreaming = async (source, imports) => {
      WebAssembly.instantiateStreaming = ownInstantiate;
      const m = await module;
      if (!m) return ownInstantiate.call(WebAssembly, source, imports);
      return { module: m, instance: await WebAssembly.instantiate(m, imports) };
    };
    return () => {
      self.fetch = ownFetch;
      WebAssembly.instantiateStreaming = ownInstantiate;
    };
  }

  // The memory's array, let go once Python is restored from it (Pyodide copied it into its
  // own): the loader's settings no longer name it, and the array goes back to the worker that
  // unpacked it (`giveBack`), or is emptied when this worker made it; either frees it at once.
  function letGo(pyodide, { memory, giveBack }) {
    const config = pyodide && pyodide._api && pyodide._api.config;
    if (config) {
      delete config._loadSnapshot;
      delete config._snapshotDeserializer;
    }
    const whole = memory.byteOffset === 0 && memory.byteLength === memory.buffer.byteLength;
    if (giveBack) giveBack(whole ? [memory.buffer] : []);
    else if (whole && typeof memory.buffer.transfer === "function") memory.buffer.transfer(0);
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
    const url = options.indexURL + SNAPSHOT;
    const runtimeUrl = options.indexURL + RUNTIME;
    // unpacked by a worker of its own while Pyodide's script loads, when this browser can
    const unpacked = typeof DecompressionStream === "undefined" ? null
      : unpackedElsewhere(url, runtimeUrl);
    if (unpacked) unpacked.catch(() => {}); // its failure is Pyodide's load's, below
    importScripts(options.indexURL + "pyodide.js");
    const load = self.loadPyodide;
    self.loadPyodide = startPython;
    // The snapshot's files hold every package: none is loaded from the (empty) lock file.
    const { packages: _packages, ...rest } = options;
    let snapshot = unpacked ? null : await unpackSnapshot(url);
    let pyodide;
    if (snapshot && snapshot.packed) {
      console.warn("Python starts afresh: this browser cannot unpack the site's snapshot");
      pyodide = await load(rest);
      snapshot = unpackedByPython(pyodide, snapshot.packed);
    } else {
      // Pyodide loads its own script and waits for the memory before it starts Python
      const memory = unpacked ? unpacked.then((got) => (snapshot = got).memory) : snapshot.memory;
      try {
        const api = {};
        const restore = unpacked && unpacked.compiling ? compiledElsewhere(unpacked, runtimeUrl)
          : () => {};
        try {
          pyodide = await load({ ...rest, _loadSnapshot: memory,
                                 _snapshotDeserializer: apiObjects(api) });
        } finally {
          restore();
        }
        api.now = pyodide;
        console.info("Python restored from the site's snapshot");
      } catch (error) {
        if (snapshot === null) throw error; // the file was not fetched or not unpacked
        console.warn(`Python starts afresh: the site's snapshot did not restore (${error})`);
        pyodide = await load(rest);
      }
      letGo(pyodide, snapshot);
    }
    writeFiles(pyodide, snapshot);
    // the snapshot's random state is every visitor's: each page draws its own
    pyodide.runPython("import random; random.seed()");
    return pyodide;
  }

  self.loadPyodide = startPython;
})();
