// The kernel worker's start from the site's snapshot (issue 40; made by snapshot.js).
// build.py puts this expression in place of the worker's `self.loadPyodide`: called with
// Pyodide's loadPyodide and the address of pyodide.js, it gives a loadPyodide that
// restores the snapshot, writes back its files, reseeds `random` and makes the kernel's
// secrets again (a snapshot freezes them, pyodide#4652), and on any error (a failed fetch,
// a corrupt file, a snapshot of another Pyodide build) starts Python as before.
(function mathcardsStart(load, pyodideUrl) {
  // run after the restore: what a snapshot would otherwise share between all visits
  var AFTER = [
    "import importlib, random, secrets, sys",
    "importlib.invalidate_caches()",
    "random.seed()",
    "_visitors = sys.modules.get('mathcards.visitors')",
    "if _visitors is not None:",
    "    _visitors._THIS_KERNEL = 'kernel:' + secrets.token_hex(16)",
  ].join("\n");

  async function gunzip(url) {
    var response = await fetch(url);
    if (!response.ok) throw new Error(url + ": " + response.status);
    var stream = response.body.pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  function writeFiles(FS, data) {
    var view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    var size = view.getUint32(0, true);
    var index = JSON.parse(new TextDecoder().decode(data.subarray(4, 4 + size)));
    var at = 4 + size;
    for (var i = 0; i < index.length; i++) {
      var name = index[i][0], length = index[i][1];
      if (length < 0) {
        FS.mkdirTree(name);
      } else {
        FS.writeFile(name, data.subarray(at, at + length), { canOwn: true });
        at += length;
      }
    }
    if (at !== data.length) throw new Error("the files' pack does not match its index");
  }

  async function restore(options) {
    var base = new URL(".", new URL(pyodideUrl, self.location.href));
    var meta = fetch(new URL("mathcards-snapshot.json", base)).then(function (r) {
      if (!r.ok) throw new Error("mathcards-snapshot.json: " + r.status);
      return r.json();
    });
    var parts = await Promise.all([
      meta, gunzip(new URL("mathcards-snapshot.bin.gz", base)),
      gunzip(new URL("mathcards-files.bin.gz", base)),
    ]);
    meta = parts[0];
    // the JS objects the snapshot's Python holds (named by snapshot.js): stand-ins that
    // reach the live ones once this Pyodide exists
    var live = {};
    var find = function (name) {
      if (name === "pyodide") return live.pyodide;
      if (name.indexOf("api.") === 0) return live.pyodide._api[name.slice(4)];
      return live.pyodide[name.slice("pyodide.".length)];
    };
    var deserializer = function (name) {
      if (typeof name !== "string") throw new Error("unknown reference in the snapshot");
      if (name === "pyodide") {
        return new Proxy({}, {
          get: function (_, key) { return live.pyodide[key]; },
          has: function (_, key) { return key in live.pyodide; },
        });
      }
      return function () { return find(name).apply(this, arguments); };
    };
    var pyodide = await load(Object.assign({}, options, {
      packages: [], _loadSnapshot: parts[1], _snapshotDeserializer: deserializer,
    }));
    live.pyodide = pyodide;
    writeFiles(pyodide.FS, parts[2]);
    Object.assign(pyodide.loadedPackages, meta.loadedPackages);
    var scope = pyodide.globals.get("dict")();
    try {
      pyodide.runPython(AFTER, { globals: scope });
    } finally {
      scope.destroy();
    }
    return pyodide;
  }

  return async function (options) {
    try {
      return await restore(options);
    } catch (error) {
      console.warn("MathCards: starting Python without the snapshot: " + error);
      return load(options);
    }
  };
})
