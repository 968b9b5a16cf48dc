// Makes the static site's start-up snapshot (issue 40), run by build.py in Node:
//
//   node snapshot.js PYODIDE_DIR PACKAGES_JSON OUT_DIR
//
// Pyodide (the site's own, from PYODIDE_DIR: its lock file, wheels and compiled standard
// library) loads the packages a page's kernel loads (PACKAGES_JSON, a JSON list), imports
// what the kernel and a play page import, is cleaned up, and its memory is written to
// OUT_DIR/mathcards-snapshot.bin.gz; the files it unpacked (site-packages and the home
// folder: a snapshot holds memory, not files, pyodide#4720) go to
// OUT_DIR/mathcards-files.bin.gz, and what the page needs to use both to
// OUT_DIR/mathcards-snapshot.json. The kernel's worker (patched by build.py with
// snapshot-start.js) restores them, and starts as before when anything goes wrong.
"use strict";
const fs = require("fs");
const path = require("path");
const zlib = require("zlib");
const crypto = require("crypto");

const [pyodideDir, packagesJson, outDir] = process.argv.slice(2);
const { loadPyodide } = require(path.join(pyodideDir, "pyodide.js"));

// what a page imports before its first cell's output: the kernel (IPython's shell),
// the widgets and the play page's modules
const IMPORTS = `
import piplite.piplite
import pyodide_kernel
import ipywidgets, anywidget
import mathcards.widgets
import mathcards.widgets.table, mathcards.widgets.suns_to_moons
import mathcards.site, mathcards.storage, mathcards.visitors
`;
// the snapshot must not hold an open file (the file system is made again at restore:
// "Bad file descriptor") nor stale import caches
const CLEAN = `
import gc, importlib, sys
importlib.invalidate_caches()
for finder in list(sys.path_importer_cache.values()):
    if hasattr(finder, "invalidate_caches"):
        finder.invalidate_caches()
gc.collect()
`;
// folders whose files a restored page needs (written back by the worker)
const FOLDERS = ["/lib/python3.13/site-packages", "/home/pyodide"];

function walk(FS, folder, entries) {
  for (const name of FS.readdir(folder)) {
    if (name === "." || name === "..") continue;
    const full = folder + "/" + name;
    const stat = FS.stat(full);
    if (FS.isDir(stat.mode)) {
      entries.push([full, -1]);
      walk(FS, full, entries);
    } else if (FS.isFile(stat.mode)) {
      entries.push([full, FS.readFile(full)]);
    }
  }
}

function pack(FS) {
  const entries = [];
  for (const folder of FOLDERS) {
    entries.push([folder, -1]);
    walk(FS, folder, entries);
  }
  const index = entries.map(([name, data]) => [name, data === -1 ? -1 : data.length]);
  const head = Buffer.from(JSON.stringify(index));
  const size = Buffer.alloc(4);
  size.writeUInt32LE(head.length);
  const parts = [size, head];
  for (const [, data] of entries) if (data !== -1) parts.push(Buffer.from(data));
  return { data: Buffer.concat(parts), count: entries.length };
}

function names(object) {
  const found = new Set();
  for (let o = object; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const key of Object.getOwnPropertyNames(o)) found.add(key);
  }
  return found;
}

(async () => {
  const started = Date.now();
  const packages = JSON.parse(fs.readFileSync(packagesJson, "utf-8"));
  const pyodide = await loadPyodide({
    indexURL: pyodideDir + path.sep, packages, _makeSnapshot: true,
  });
  await pyodide.runPythonAsync(IMPORTS);
  pyodide.runPython(CLEAN);
  const open = pyodide.FS.streams.filter((s) => s && s.fd > 2).map((s) => s.path);
  if (open.length) throw new Error("files left open: " + open.join(", "));
  // the live JS objects the Python side holds (micropip's and the kernel's): named here,
  // stood in for at restore (snapshot-start.js)
  const api = pyodide._api;
  const serializer = (object) => {
    if (object === pyodide || object === api.public_api) return "pyodide";
    for (const [prefix, owner] of [["pyodide.", pyodide], ["api.", api]]) {
      for (const key of names(owner)) {
        try { if (owner[key] === object) return prefix + key; } catch (e) { /* a getter */ }
      }
    }
    throw new Error("the snapshot holds a JS object it cannot name: " + String(object));
  };
  // loadedPackages must be empty when the snapshot is taken (pyodide#5195)
  const loaded = { ...pyodide.loadedPackages };
  for (const key of Object.keys(pyodide.loadedPackages)) delete pyodide.loadedPackages[key];
  const files = pack(pyodide.FS);
  const snapshot = pyodide.makeMemorySnapshot({ serializer });
  const gz = zlib.gzipSync(snapshot, { level: 6 });
  const filesGz = zlib.gzipSync(files.data, { level: 6 });
  fs.writeFileSync(path.join(outDir, "mathcards-snapshot.bin.gz"), gz);
  fs.writeFileSync(path.join(outDir, "mathcards-files.bin.gz"), filesGz);
  const id = crypto.createHash("sha256").update(gz).update(filesGz).digest("hex").slice(0, 16);
  fs.writeFileSync(path.join(outDir, "mathcards-snapshot.json"), JSON.stringify({
    id, snapshotBytes: gz.length, filesBytes: filesGz.length, loadedPackages: loaded,
  }));
  console.log(`site: snapshot ${(snapshot.length / 1e6).toFixed(1)} MB ` +
    `(${(gz.length / 1e6).toFixed(1)} MB gzipped), ${files.count} files and folders ` +
    `(${(filesGz.length / 1e6).toFixed(1)} MB gzipped), in ${(Date.now() - started) / 1000} s`);
})().catch((error) => { console.error(error.message || error); process.exit(1); });
