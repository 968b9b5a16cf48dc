"""Build MathCards' static site (Voici on JupyterLite's Pyodide kernel) into a folder.

    python3 deploy/site/build.py [--out _site] [--cache DIR]

Everything comes from the package registries: the build tools and every wheel from PyPI,
the Pyodide runtime from npm (``pyodide@0.29.0``). Downloads are kept in a cache outside
the repository (``$MATHCARDS_SITE_CACHE``, default ``~/.cache/mathcards-site``), so a
second build fetches nothing. The folder it writes needs no server of its own: any static
file server serves it (``python -m http.server -d _site``), and at run time the pages
fetch nothing from another host (the Python runtime and every wheel are inside it).

The site holds the landing page, the five lessons, the five play pages, the practice page
with the sample sets and the teacher's guide; the pages that need a MathCards server (the
class dashboard, the classes page, the set writer) are left out.

This script imports nothing of MathCards: the wheel list comes from pyproject.toml's
dependencies (less the server's), resolved against deploy/site/browser-constraints.txt.
"""

from __future__ import annotations

import argparse
import base64
import csv
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import venv
import zipfile
from pathlib import Path

import tomllib

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
# the site's pages start from a memory snapshot of this Pyodide (snapshot.js, issue 40):
# stay on 0.29 while Pyodide 314.x cannot restore a snapshot over 30 MB (pyodide#6254;
# the site's is 36 MB), and check the worker patch (WORKER_START) with any kernel update
PYODIDE_VERSION = "0.29.0"
PYTHON_VERSION = "3.13"
# pyproject dependencies that serve pages and never run in the browser (brotli, zopfli:
# the server's compressed copies of Voilà's files)
SERVER_ONLY = {"jupyterlab", "voila", "brotli", "zopfli"}
# the pages of the static site (lessons/ names); the exercise sets come along
PAGES = [
    "index.ipynb",
    "suns_to_moons.ipynb", "dice_stacks.ipynb", "sums.ipynb",
    "shoot_the_moon.ipynb", "moons_and_planets.ipynb",
    "play_suns_to_moons.ipynb", "play_dice_stacks.ipynb", "play_sums.ipynb",
    "play_shoot_the_moon.ipynb", "play_moons_and_planets.ipynb",
    "practice.ipynb", "teachers.ipynb",
]
# pages of a MathCards server only: the site has a one-line page in their place
SERVER_PAGES = {
    "dashboard": "The class results page", "classes": "The classes page",
    "write_set": "The set writer",
}
# Links between pages name notebooks (practice.ipynb?set=x): on the site each page is
# voici/render/NAME.html. The build rewrites the pages' own links; this script rewrites
# the ones the widgets make, on the click, before the browser follows them.
LINK_SCRIPT = """<script>document.addEventListener("click", function (event) {
  var a = event.target.closest && event.target.closest("a[href]");
  var m = a && /^([\\w-]+)\\.ipynb([?#].*)?$/.exec(a.getAttribute("href"));
  if (m) { a.setAttribute("href", m[1] + ".html" + (m[2] || "")); }
}, true);</script>"""
NEEDS_SERVER_PAGE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>MathCards</title></head><body style="font-family: sans-serif; margin: 2em">
<p>{what} needs a MathCards server:
<a href="teachers.html#A-MathCards-server-or-the-static-site">how to run one</a>.
<a href="index.html">All games</a></p></body></html>
"""
# the kernel's own wheels (shipped inside jupyterlite-pyodide-kernel's lab extension)
KERNEL_WHEELS = ("pyodide_kernel", "piplite", "ipykernel", "widgetsnbextension-4")
# what those wheels stand in for (the browser's ipywidgets talks to the kernel's own
# widgetsnbextension; sqlite3 and jedi are empty stand-ins, see no_sqlite_wheel, no_jedi_wheel)
KERNEL_PROVIDES = ["ipykernel", "widgetsnbextension", "pyodide-kernel", "piplite", "sqlite3",
                   "jedi"]
# the kernel asks for these at start; they must be preloaded (or it asks PyPI)
KERNEL_WANTS = ["micropip", "piplite", "sqlite3", "ipykernel", "comm", "pyodide_kernel",
                "jedi", "ipython"]


def say(text: str) -> None:
    print(f"site: {text}", flush=True)


def run(*args: str | Path, **kwargs: object) -> None:
    subprocess.run([str(a) for a in args], check=True, **kwargs)  # type: ignore[call-overload]


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def build_env(cache: Path) -> Path:
    """The build tools' venv in the cache, made again when the pins change."""
    pins = (HERE / "requirements-build.txt").read_bytes()
    env = cache / "buildenv"
    stamp = env / "pins.sha256"
    digest = hashlib.sha256(pins).hexdigest()
    if stamp.exists() and stamp.read_text() == digest:
        return env
    say("installing the build tools (voici-core, jupyterlite) into the cache")
    shutil.rmtree(env, ignore_errors=True)
    venv.create(env, with_pip=True)
    run(env / "bin" / "python", "-m", "pip", "install", "--quiet",
        "-r", HERE / "requirements-build.txt")
    stamp.write_text(digest)
    return env


def pyodide_core(cache: Path) -> Path:
    """Pyodide's core files from npm (pyodide@VERSION), unpacked in the cache."""
    target = cache / f"pyodide-{PYODIDE_VERSION}"
    if (target / "pyodide.js").exists():
        return target
    say(f"fetching pyodide@{PYODIDE_VERSION} from npm")
    with tempfile.TemporaryDirectory() as tmp:
        run("npm", "pack", "--silent", f"pyodide@{PYODIDE_VERSION}", cwd=tmp)
        (archive,) = Path(tmp).glob("pyodide-*.tgz")
        with tarfile.open(archive) as tar:
            tar.extractall(tmp, filter="data")
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(Path(tmp) / "package", target)
    return target


def browser_requirements() -> list[str]:
    """pyproject.toml's dependencies that run in the browser."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    wanted = []
    for requirement in project["dependencies"]:
        name = re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0]
        if normalize(name) not in SERVER_ONLY:
            wanted.append(requirement)
    return wanted


def download_wheels(env: Path, cache: Path, requirements: list[str]) -> list[Path]:
    """Pure-Python wheels for Python 3.13 from PyPI (cached), PyYAML's made from its sdist.

    pip evaluates markers for this machine (Linux), not the browser (emscripten): so each
    wheel is fetched without its dependencies, and every dependency a wheel declares for
    the browser must be pinned in browser-constraints.txt (checked below)."""
    wheels = cache / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    pins = _pins(HERE / "browser-constraints.txt")
    wanted = {normalize(re.split(r"[<>=!~\[; ]", r)[0]) for r in requirements} | set(pins)
    chosen = []
    for dist in sorted(wanted - {"pyyaml"}):
        spec = f"{dist}=={pins[dist]}" if dist in pins else dist
        have = [w for w in wheels.glob("*.whl") if normalize(w.name.split("-")[0]) == dist
                and (dist not in pins or w.name.split("-")[1] == pins[dist])]
        if not have:
            run(env / "bin" / "python", "-m", "pip", "download", "--quiet", "--no-deps",
                "--dest", wheels, "--only-binary=:all:", "--platform", "any",
                "--implementation", "py", "--abi", "none", "--python-version",
                PYTHON_VERSION, "--progress-bar=off", spec)
            have = [w for w in wheels.glob("*.whl")
                    if normalize(w.name.split("-")[0]) == dist]
        chosen.append(max(have))
    chosen.append(pyyaml_wheel(env, cache, pins["pyyaml"]))
    check_closure(chosen, {normalize(n) for n in KERNEL_PROVIDES})
    return chosen


def check_closure(wheels: list[Path], provided: set[str]) -> None:
    """Every dependency the wheels declare for Pyodide (Python 3.13, emscripten) is shipped."""
    from packaging.requirements import Requirement

    browser = {"python_version": PYTHON_VERSION, "python_full_version": PYTHON_VERSION + ".2",
               "sys_platform": "emscripten", "platform_system": "Emscripten",
               "os_name": "posix", "platform_machine": "wasm32",
               "implementation_name": "cpython", "platform_python_implementation": "CPython",
               "extra": ""}
    shipped = {normalize(w.name.split("-")[0]) for w in wheels} | provided
    missing = set()
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            (meta,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
            text = archive.read(meta).decode()
        for line in re.findall(r"^Requires-Dist: (.+)$", text, re.M):
            requirement = Requirement(line)
            if requirement.marker and not requirement.marker.evaluate(browser):
                continue
            if normalize(requirement.name) not in shipped:
                missing.add(f"{requirement.name} (for {wheel.name.split('-')[0]})")
    if missing:
        sys.exit("site: pin these in deploy/site/browser-constraints.txt: "
                 + ", ".join(sorted(missing)))


def _pins(constraints: Path) -> dict[str, str]:
    pins = {}
    for line in constraints.read_text().splitlines():
        line = line.split("#")[0].strip()
        if "==" in line:
            name, version = line.split("==")
            pins[normalize(name)] = version.strip()
    return pins


def pyyaml_wheel(env: Path, cache: Path, version: str) -> Path:
    """A py3-none-any wheel of PyYAML's pure-Python lib/yaml (no wheel of that kind on PyPI)."""
    target = cache / f"PyYAML-{version}-py3-none-any.whl"
    if target.exists():
        return target
    with tempfile.TemporaryDirectory() as tmp:
        run(env / "bin" / "python", "-m", "pip", "download", "--quiet", "--no-deps",
            # no build isolation: fetching the sdist builds no Cython for its metadata
            "--no-build-isolation", "--no-binary=:all:", "--dest", tmp, f"pyyaml=={version}")
        (sdist,) = Path(tmp).glob("*.tar.gz")
        with tarfile.open(sdist) as tar:
            tar.extractall(tmp, filter="data")
        (lib,) = Path(tmp).glob("*/lib/yaml")
        files = {f"yaml/{p.relative_to(lib)}": p.read_bytes()
                 for p in sorted(lib.rglob("*.py"))}
        info = f"PyYAML-{version}.dist-info"
        files[f"{info}/METADATA"] = (
            f"Metadata-Version: 2.1\nName: PyYAML\nVersion: {version}\n"
            "Summary: PyYAML's pure-Python library (lib/yaml), no C extension\n").encode()
        files[f"{info}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: mathcards-site\n"
                                  b"Root-Is-Purelib: true\nTag: py3-none-any\n")
        files[f"{info}/top_level.txt"] = b"yaml\n"
        _write_wheel(target, files, info)
    return target


def _write_wheel(target: Path, files: dict[str, bytes], info: str) -> None:
    record = io.StringIO()
    writer = csv.writer(record, lineterminator="\n")
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        writer.writerow([name, f"sha256={digest}", len(data)])
    writer.writerow([f"{info}/RECORD", "", ""])
    files = {**files, f"{info}/RECORD": record.getvalue().encode()}
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            archive.writestr(zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0)), data,
                             zipfile.ZIP_DEFLATED)


def no_sqlite_wheel(cache: Path) -> Path:
    """An empty stand-in for the kernel's request of ``sqlite3`` (not in Pyodide from npm):
    it installs no module, so ``import sqlite3`` still fails honestly in the browser."""
    target = cache / "sqlite3-0.0.0-py3-none-any.whl"
    if not target.exists():
        info = "sqlite3-0.0.0.dist-info"
        _write_wheel(target, {
            f"{info}/METADATA": b"Metadata-Version: 2.1\nName: sqlite3\nVersion: 0.0.0\n"
                                b"Summary: nothing: this Pyodide has no sqlite3\n",
            f"{info}/WHEEL": b"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        }, info)
    return target


def no_jedi_wheel(cache: Path) -> Path:
    """An empty stand-in for the kernel's request of ``jedi`` (IPython's completer, which no
    page of the site uses: a Voici page has no code editor). jedi's wheel (4.9 MB, with
    parso) was unpacked and imported on every visit; IPython runs without it
    (``JEDI_INSTALLED = False``), and ``import jedi`` fails honestly."""
    target = cache / "jedi-0.0.0-py3-none-any.whl"
    if not target.exists():
        info = "jedi-0.0.0.dist-info"
        _write_wheel(target, {
            f"{info}/METADATA": b"Metadata-Version: 2.1\nName: jedi\nVersion: 0.0.0\n"
                                b"Summary: nothing: no code completion on the static site\n",
            f"{info}/WHEEL": b"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        }, info)
    return target


# Runs in Node with Pyodide's own Python (3.13, the browser's): each wheel's modules get
# their bytecode beside them (__pycache__, unchecked hash-based .pyc: the files' times on
# the browser's fresh file system do not matter), so a visit imports instead of compiling.
PYC_SCRIPT = r"""
const { loadPyodide } = require(process.argv[2]);
(async () => {
  const pyodide = await loadPyodide();
  pyodide.FS.mkdir("/work");
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: process.argv[3] }, "/work");
  pyodide.runPython(`
import base64, csv, hashlib, importlib._bootstrap_external as bx, importlib.util, io, os
import posixpath, sys, zipfile

def digest(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()

for name in sorted(os.listdir("/work/in")):
    with zipfile.ZipFile("/work/in/" + name) as src, \\
            zipfile.ZipFile("/work/out/" + name, "w", zipfile.ZIP_DEFLATED) as out:
        rows, record = [], None
        for info in src.infolist():
            data = src.read(info)
            if info.filename.endswith(".dist-info/RECORD"):
                record = info.filename
                continue
            out.writestr(info, data, zipfile.ZIP_DEFLATED)
            rows.append([info.filename, digest(data), len(data)])
            if not info.filename.endswith(".py") or ".dist-info/" in info.filename:
                continue
            stdlib = name == "python_stdlib.zip"
            try:
                code = compile(data, ("/lib/python313.zip/" if stdlib else "") + info.filename,
                               "exec", dont_inherit=True)
            except SyntaxError:  # a template or a test of a syntax error: left as it is
                continue
            pyc = bytes(bx._code_to_hash_pyc(code, importlib.util.source_hash(data), False))
            folder, module = posixpath.split(info.filename)
            # the standard library is imported from its zip: there the bytecode lies beside
            # its module (zipimport reads x.pyc before x.py)
            cached = (info.filename + "c" if stdlib else posixpath.join(
                folder, "__pycache__", module[:-3] + "." + sys.implementation.cache_tag + ".pyc"))
            out.writestr(zipfile.ZipInfo(cached, info.date_time), pyc, zipfile.ZIP_DEFLATED)
            rows.append([cached, digest(pyc), len(pyc)])
        if record:
            text = io.StringIO()
            csv.writer(text, lineterminator="\\n").writerows(rows + [[record, "", ""]])
            out.writestr(zipfile.ZipInfo(record, (2020, 1, 1, 0, 0, 0)),
                         text.getvalue(), zipfile.ZIP_DEFLATED)
`);
})().catch((error) => { console.error(error); process.exit(1); });
"""


# pygments' lexers, which IPython loads a few of, would more than double its wheel (1.25 MB
# to 3.1 MB, unpacked at each start). sympy's bytecode triples its wheel (6.3 MB to
# 20.8 MB), but sympy is DEFERRED, and compiling it in the browser took 11-19 s
NOT_COMPILED = {"pygments"}
# in the lock file but not unpacked at a page's start (6 s of a warm visit): the explainer
# unpacks them on its first use (mathcards.site.unpack_deferred)
DEFERRED = {"sympy", "mpmath"}


def compiled(cache: Path, wheels: list[Path]) -> list[Path]:
    """The wheels with their modules' bytecode for Pyodide's Python (cached by content),
    less NOT_COMPILED's."""
    store = cache / "pyc"
    store.mkdir(exist_ok=True)
    target = {w: (w if normalize(w.name.split("-")[0]) in NOT_COMPILED else
                  store / hashlib.sha256(w.read_bytes()).hexdigest()[:16] / w.name)
              for w in wheels}
    todo = [w for w in wheels if not target[w].exists()]
    if todo:
        say(f"compiling the modules of {len(todo)} wheels for Pyodide's Python (Node)")
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "in").mkdir()
            (Path(tmp) / "out").mkdir()
            for wheel in todo:
                shutil.copy2(wheel, Path(tmp) / "in" / wheel.name)
            (Path(tmp) / "pyc.js").write_text(PYC_SCRIPT)
            run("node", Path(tmp) / "pyc.js", pyodide_core(cache) / "pyodide.js", tmp)
            for wheel in todo:
                target[wheel].parent.mkdir(exist_ok=True)
                shutil.copy2(Path(tmp) / "out" / wheel.name, target[wheel])
    return [target[w] for w in wheels]


def mathcards_wheel(env: Path, out: Path) -> Path:
    # setuptools builds in the repo's build/ (ignored by git): a module deleted since an
    # earlier build would stay in build/lib and ship in the wheel
    shutil.rmtree(REPO / "build", ignore_errors=True)
    run(env / "bin" / "python", "-m", "pip", "wheel", "--quiet", "--no-deps",
        "--no-build-isolation", "--wheel-dir", out, REPO)
    (wheel,) = out.glob("mathcards-*.whl")
    return wheel


def kernel_wheels(env: Path) -> list[Path]:
    (pypi,) = env.glob("share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension"
                       "/static/pypi")
    return [w for w in sorted(pypi.glob("*.whl"))
            if any(w.name.startswith(k + ("" if "-" in k else "-")) for k in KERNEL_WHEELS)]


def lock_entry(wheel: Path) -> dict[str, object]:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        (meta,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        text = archive.read(meta).decode()
    name = re.search(r"^Name: (.+)$", text, re.M).group(1).strip()  # type: ignore[union-attr]
    version = re.search(r"^Version: (.+)$", text, re.M).group(1).strip()  # type: ignore[union-attr]
    imports = sorted({n.split("/")[0].removesuffix(".py") for n in names
                      if not n.split("/")[0].endswith((".dist-info", ".data"))
                      and ((n.endswith("/__init__.py") and n.count("/") == 1)
                           or ("/" not in n and n.endswith(".py")))})
    return {
        "name": normalize(name), "version": version, "file_name": wheel.name,
        "install_dir": "site", "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
        "package_type": "package", "imports": imports, "depends": [],
        "unvendored_tests": False,
    }


def stage(lite: Path, env: Path, cache: Path, wheels: list[Path]) -> list[str]:
    """The lite folder: Pyodide with every wheel and its lock file, the settings, the pages."""
    pyodide = lite / "static" / "pyodide"
    core = pyodide_core(cache)
    pyodide.mkdir(parents=True)
    for name in ("pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm",
                 "package.json"):
        shutil.copy2(core / name, pyodide / name)
    # Pyodide's standard library comes as sources only: with its bytecode, a visit stops
    # compiling the modules that Pyodide, the kernel and IPython import
    (stdlib,) = compiled(cache, [core / "python_stdlib.zip"])
    shutil.copy2(stdlib, pyodide / "python_stdlib.zip")
    lock = json.loads((core / "pyodide-lock.json").read_text())
    packages = {}
    for wheel in wheels:
        shutil.copy2(wheel, pyodide / wheel.name)
        entry = lock_entry(wheel)
        packages[str(entry["name"])] = entry
    lock["packages"] = packages
    (pyodide / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True))
    names = sorted(packages)
    missing = [n for n in KERNEL_WANTS if normalize(n) not in packages]
    if missing:
        sys.exit(f"site: the kernel needs {missing}: add them to browser-constraints.txt")
    settings = {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "MathCards",
            "disableNotebookTrust": True,
            "litePluginSettings": {
                "@jupyterlite/pyodide-kernel-extension:kernel": {
                    "pyodideUrl": "./static/pyodide/pyodide.js",
                    "disablePyPIFallback": True,
                    "loadPyodideOptions": {
                        "lockFileURL": "./static/pyodide/pyodide-lock.json",
                        "packages": [n for n in names if n not in DEFERRED],
                    },
                },
            },
        },
    }
    (lite / "jupyter-lite.json").write_text(json.dumps(settings, indent=1))
    contents = lite / "contents"
    contents.mkdir()
    for page in PAGES:
        shutil.copy2(REPO / "lessons" / page, contents / page)
    shutil.copytree(REPO / "lessons" / "exercises", contents / "exercises")
    return names


def finish(out: Path) -> None:
    """The pages link to each other and fetch nothing from another host; the site's
    address opens the landing page."""
    render = out / "voici" / "render"
    for page in render.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        # Font Awesome from a CDN: no MathCards page on the site uses an icon
        text = re.sub(r'<link rel="stylesheet" href="https://cdn\.jsdelivr\.net/npm/'
                      r'@fortawesome/[^"]*"[^>]*>', "", text)
        text = re.sub(r'href="([\w-]+)\.ipynb([?#][^"]*)?"', r'href="\1.html\2"', text)
        # the pages in another language (lessons/es/) are a server's only: no link to them
        text = re.sub(r'<a href="[a-z]{2}(?:-[A-Za-z]+)?/[\w-]+\.ipynb[^"]*"[^>]*>.*?</a>', "",
                      text, flags=re.S)
        text = text.replace("</body>", LINK_SCRIPT + "\n</body>", 1)
        page.write_text(text, encoding="utf-8")
    for name, what in SERVER_PAGES.items():
        (render / f"{name}.html").write_text(NEEDS_SERVER_PAGE.format(what=what))
    (out / "index.html").write_text(
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>MathCards</title>'
        '<meta http-equiv="refresh" content="0; url=voici/render/index.html"></head><body>'
        '<a href="voici/render/index.html">MathCards</a></body></html>\n')


# the kernel worker's start: `importScripts(pyodideUrl), load = self.loadPyodide` in each
# of jupyterlite-pyodide-kernel 0.7.0's worker chunks
WORKER_START = re.compile(r"\(importScripts\((\w)\),(\w)=self\.loadPyodide\)")


def snapshot(out: Path, packages: list[str]) -> None:
    """Python started once at build time (snapshot.js, in Node), and the kernel's worker
    patched to start from it (snapshot-start.js): a page skips unpacking the wheels and
    importing the kernel (issue 40)."""
    pyodide = out / "static" / "pyodide"
    with tempfile.TemporaryDirectory() as tmp:
        listed = Path(tmp) / "packages.json"
        listed.write_text(json.dumps(packages))
        run("node", HERE / "snapshot.js", pyodide, listed, pyodide)
    patched = patch_worker(out / "extensions" / "@jupyterlite" / "pyodide-kernel-extension"
                           / "static")
    say(f"the kernel worker starts from the snapshot ({patched} places patched)")


def patch_worker(chunks: Path) -> int:
    """Each kernel worker chunk's `self.loadPyodide` becomes snapshot-start.js's; the
    build stops with one line when a chunk loads Pyodide otherwise (a new kernel)."""
    start = (HERE / "snapshot-start.js").read_text().strip()
    patched = 0
    for chunk in sorted(chunks.glob("*.js")):
        text = chunk.read_text(encoding="utf-8")
        wanted = text.count("self.loadPyodide")
        if not wanted:
            continue
        text, found = WORKER_START.subn(
            lambda m: f"(importScripts({m[1]}),{m[2]}=({start})(self.loadPyodide,{m[1]}))", text)
        if found != wanted:
            sys.exit(f"site: {chunk.name}: the kernel worker's start no longer matches "
                     "build.py's WORKER_START: update it or build with --no-snapshot")
        chunk.write_text(text, encoding="utf-8")
        patched += found
    if not patched:
        sys.exit("site: no kernel worker chunk loads Pyodide (self.loadPyodide): update "
                 "build.py's WORKER_START or build with --no-snapshot")
    return patched


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "_site")
    parser.add_argument("--cache", type=Path, default=Path(os.environ.get(
        "MATHCARDS_SITE_CACHE", Path.home() / ".cache" / "mathcards-site")))
    parser.add_argument("--no-snapshot", action="store_true",
                        help="no start-up snapshot: each page starts Python from the wheels")
    args = parser.parse_args()
    cache = args.cache.expanduser().resolve()
    cache.mkdir(parents=True, exist_ok=True)
    env = build_env(cache)
    if Path(sys.prefix).resolve() != env.resolve():
        # go on inside the build tools' venv (packaging reads the wheels' markers there)
        os.execv(env / "bin" / "python", [str(env / "bin" / "python"), __file__,
                                          "--out", str(args.out), "--cache", str(cache),
                                          *(["--no-snapshot"] if args.no_snapshot else [])])
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        wheels = [*compiled(cache, [
            *download_wheels(env, cache, browser_requirements()), *kernel_wheels(env),
            mathcards_wheel(env, work / "dist")]), no_sqlite_wheel(cache), no_jedi_wheel(cache)]
        lite = work / "lite"
        names = stage(lite, env, cache, wheels)
        say(f"{len(names)} wheels for the browser; building with voici")
        out = args.out.resolve()
        shutil.rmtree(out, ignore_errors=True)
        run(env / "bin" / "voici", "build", "--lite-dir", lite, "--contents",
            lite / "contents", "--output-dir", out, "--no-sourcemaps",
            cwd=lite, env={**os.environ, "JUPYTERLITE_NO_LIBARCHIVE": "1"})
    finish(out)
    if not args.no_snapshot:
        snapshot(out, [n for n in names if n not in DEFERRED])
    say(f"built {out}: serve it with `python3 -m http.server -d {out.name}`")


if __name__ == "__main__":
    main()
