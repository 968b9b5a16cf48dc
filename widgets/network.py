"""What a page costs the school's network: Voilà's files compressed and cached for good.

A Voilà page loads about 5 MB of JavaScript and CSS in some 90 files. Voilà serves them
as they are (it applies ``tornado_settings`` after tornado built its application, and
tornado reads ``compress_response`` only then), and its own scripts and the widget
manager's have no lifetime, so a second visit asks for every one again. The kernel
manager of ``lessons/voila.json`` (``server.ClassroomKernelManager``) calls ``install``
before Voilà builds its handlers; from then on Voilà's three static handlers are these
subclasses:

- **Compressed once, served as files.** A browser whose ``Accept-Encoding`` takes brotli
  (``br``) gets a text file (scripts, styles, fonts other than woff/woff2, JSON, SVG) of
  at least ``MIN_SIZE`` bytes as its brotli copy (quality 11: 14 % fewer bytes than
  gzip -9 over Voilà's files), else one that takes gzip its gzip copy (made by zopfli:
  5 % fewer bytes than gzip -9, read by every gzip decoder), with its
  ``Content-Encoding``. These copies take seconds of CPU for the largest scripts, so
  they are made beforehand, on every core (``warm``: each ``make play``, Binder's build),
  and kept in a cache folder (``cache_dir``) under the source's path, size and time. A
  request whose copy is missing (a cleared cache, Voilà upgraded since) gets a gzip -9
  copy made then, in milliseconds (``served_copy``), never brotli's or zopfli's wait.
  Browsers send ``br`` to HTTPS addresses (a hub) and to 127.0.0.1, not to a
  plain-HTTP address on the school's network: those get gzip. Every answer says
  ``Vary: Accept-Encoding``; a client without either, or asking for a byte range, gets
  the plain file. A copy has its own ETag.
- **Cached for good when the address names the content.** Voilà's own scripts are
  served under ``voila/static/mc-<version>/`` (``page_config_hook`` points the page
  and its webpack chunks there; the version is a hash of Voilà's static files), the
  widget manager's files carry a content hash in their names, and the template's styles
  a ``?v=`` hash: all of them go out with ``Cache-Control: public, max-age=31536000,
  immutable``. Anything else keeps its handler's own rule (revalidation).

JupyterHub's proxy (configurable-http-proxy) passes these headers and bodies through as
they are, so a student's server on a hub (``widgets/singleuser.py``) serves the same.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import hashlib
import os
import re
import sys
import tempfile
from pathlib import Path, PurePath
from typing import Any

IMMUTABLE = "public, max-age=31536000, immutable"
MIN_SIZE = 1024  # smaller files gain less than the headers cost
COMPRESSIBLE = {".js", ".mjs", ".css", ".json", ".svg", ".html", ".map", ".txt", ".ttf",
                ".otf", ".eot", ".xml", ".wasm"}
VERSION_PREFIX = "mc-"
# a content hash in a file name: 121.5c5a442bc10a67ee.js, remoteEntry.be18471aaf567c023b03.js,
# and anywidget's eight hex digits (remoteEntry.698dcaf7.js)
_HASHED_NAME = re.compile(r"[.-][0-9a-f]{8,}\.[a-z0-9]+$")
# the encodings a copy is made in, the browser's first choice first
ENCODINGS = ("br", "gzip")
_SUFFIX = {"br": ".br", "gzip": ".gz"}


def _coding(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?:^|,)\s*{name}\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*(?:,|$)",
                      re.IGNORECASE)


_CODINGS = {name: _coding(name) for name in ENCODINGS}


def _writable(folder: Path) -> bool:
    """``folder`` exists and is writable, or can be made under a writable parent."""
    for place in (folder, *folder.parents):
        if place.exists():
            return place.is_dir() and os.access(place, os.W_OK | os.X_OK)
    return False


@functools.lru_cache(maxsize=1)
def cache_dir() -> Path:
    """Where the compressed copies go: in the Python environment that serves the files
    (``<sys.prefix>/var/cache/mathcards``), so the copies an image's build made are where
    every server of that image looks (a hub mounts each student's own home over the
    image's), else, where the environment is read-only, ``$XDG_CACHE_HOME`` or ``~/.cache``,
    then ``mathcards/compressed``."""
    here = Path(sys.prefix) / "var" / "cache" / "mathcards"
    if _writable(here):
        return here
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mathcards" / "compressed"


def accepts(header: str | None, coding: str) -> bool:
    """Whether an ``Accept-Encoding`` header takes ``coding`` (and not with ``q=0``)."""
    match = _CODINGS[coding].search(header or "")
    if match is None:
        return False
    try:
        return match.group(1) is None or float(match.group(1)) > 0
    except ValueError:
        return False


def accepts_gzip(header: str | None) -> bool:
    return accepts(header, "gzip")


def has_brotli() -> bool:
    try:
        import brotli  # noqa: F401
    except ImportError:
        return False
    return True


def accepted_encodings(header: str | None) -> list[str]:
    """The encodings of ``ENCODINGS`` a browser whose ``Accept-Encoding`` is ``header``
    takes (brotli only where the module is here), the smaller first."""
    return [coding for coding in ENCODINGS
            if accepts(header, coding) and (coding != "br" or has_brotli())]


def best_encoding(header: str | None) -> str | None:
    """The encoding to send: brotli where it is taken, else gzip where taken, else None."""
    taken = accepted_encodings(header)
    return taken[0] if taken else None


# a gzip -9 copy made while a browser waits, where the install's copies are missing (a
# cleared cache, a Voilà upgraded after ``make play`` made them): milliseconds of CPU,
# where brotli 11 and zopfli take seconds for Voilà's largest scripts
QUICK = "gzip-quick"
_SUFFIX[QUICK] = ".gz9"


def _compress(data: bytes, encoding: str) -> bytes:
    if encoding == "br":
        import brotli

        return bytes(brotli.compress(data, quality=11))
    if encoding == QUICK:
        return gzip.compress(data, compresslevel=9, mtime=0)
    try:  # zopfli: a gzip stream every browser reads, 5 % smaller than gzip -9's
        import zopfli.gzip
    except ImportError:
        return gzip.compress(data, compresslevel=9, mtime=0)
    return bytes(zopfli.gzip.compress(data, numiterations=1))


def compressed_copy(path: str, folder: Path | None = None,
                    encoding: str = "gzip", *, make: bool = True) -> str | None:
    """The copy of the file at ``path`` in ``encoding`` (``br``: brotli quality 11,
    ``gzip``: zopfli's gzip, ``QUICK``: gzip -9), made now if missing and ``make``; None
    when the file is not worth compressing, the copy is missing and not to be made, or no
    copy can be written."""
    if os.path.splitext(path)[1].lower() not in COMPRESSIBLE:
        return None
    try:
        stat = os.stat(path)
    except OSError:
        return None
    if stat.st_size < MIN_SIZE:
        return None
    key = hashlib.sha256(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}".encode()).hexdigest()
    folder = folder or cache_dir()
    target = folder / f"{key[:32]}{_SUFFIX[encoding]}"
    if target.exists():
        return str(target)
    if not make:
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(path, "rb") as f:
            data = _compress(f.read(), encoding)
        if len(data) >= stat.st_size:
            return None
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".part")
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.utime(tmp, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # Last-Modified: the source's
        os.replace(tmp, target)  # whole or not at all: two requests may race here
    except (OSError, ImportError):
        with contextlib.suppress(UnboundLocalError, OSError):
            os.unlink(tmp)
        return None
    return str(target)


def served_copy(path: str, header: str | None,
                folder: Path | None = None) -> tuple[str, str] | None:
    """(Content-Encoding, file) to answer a request for ``path`` from a browser whose
    ``Accept-Encoding`` is ``header``: the smallest copy the install made that the browser
    takes, else a gzip -9 copy made now (``QUICK``: never brotli's or zopfli's seconds
    while a class waits), else None (the plain file)."""
    taken = accepted_encodings(header)
    for coding in taken:
        copy = compressed_copy(path, folder, coding, make=False)
        if copy is not None:
            return coding, copy
    if "gzip" in taken:
        copy = compressed_copy(path, folder, QUICK)
        if copy is not None:
            return "gzip", copy
    return None


def static_version(folders: list[str] | None = None) -> str:
    """A hash of Voilà's static files (names, sizes, times): changes with Voilà."""
    if folders is None:
        from voila.paths import collect_static_paths

        folders = collect_static_paths(["voila", "nbconvert"], "base")
    digest = hashlib.sha256()
    for folder in folders:
        with contextlib.suppress(OSError):
            for entry in sorted(os.scandir(folder), key=lambda e: e.name):
                if entry.is_file():
                    st = entry.stat()
                    digest.update(f"{entry.name}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


_VERSION: list[str] = []


def current_version() -> str:
    if not _VERSION:
        _VERSION.append(static_version())
    return _VERSION[0]


def serves_versions() -> bool:
    """This process is Voilà's own application with these file handlers (``install``): only
    they serve ``mc-<version>/``. Voilà as a JupyterLab server's extension (a hub's teacher
    server reads the same ``lessons/voila.py``) keeps its own handlers, so its pages keep
    Voilà's address (a versioned one would not be found: the page would never start)."""
    try:
        import voila.app as app
    except ImportError:
        return False
    return bool(getattr(app, "_mathcards_compact", False)) and app.Voila.initialized()


# the front-end extension that colours code blocks (its three files are three requests of
# every cold visit); a play page shows no code, so its pages go without it (issue 29 item 3)
CODE_COLOURS = "jupyterlab_pygments"


def shows_no_code(notebook_path: str) -> bool:
    """A page that never shows a code block: a play page (``play_<game>.ipynb``)."""
    return PurePath(str(notebook_path)).name.startswith("play_")


def page_config_hook(page_config: dict[str, Any], base_url: str, settings: Any, log: Any,
                     voila_configuration: Any, notebook_path: str) -> dict[str, Any]:
    """Voilà's page config with its scripts (and their webpack chunks) under a versioned
    address (``VoilaConfiguration.page_config_hook`` in ``lessons/voila.py``), and without
    the code colours' extension on a page that shows no code (``shows_no_code``)."""
    extensions = page_config.get("federated_extensions")
    if isinstance(extensions, list) and shows_no_code(notebook_path):
        page_config["federated_extensions"] = [
            x for x in extensions if not (isinstance(x, dict) and x.get("name") == CODE_COLOURS)]
    if not serves_versions():  # JupyterLab's Voilà extension (a hub's teacher): as it is
        return page_config
    static = page_config.get("fullStaticUrl")
    if isinstance(static, str) and not static.rstrip("/").rsplit("/", 1)[-1].startswith(
            VERSION_PREFIX):
        page_config["fullStaticUrl"] = f"{static.rstrip('/')}/{VERSION_PREFIX}{current_version()}"
    return page_config


class CompactFiles:
    """Mixin for a tornado StaticFileHandler: compressed copies and lifetimes (module
    docstring)."""

    _mc_plain: str | None = None
    _mc_copy: str | None = None
    _mc_immutable = False

    def validate_absolute_path(self, root: Any, absolute_path: str) -> str | None:
        path: str | None = super().validate_absolute_path(  # type: ignore[misc]
            root, absolute_path)
        self._mc_plain = path
        request = self.request  # type: ignore[attr-defined]
        if path is None or request.method not in ("GET", "HEAD") or \
                "Range" in request.headers or not os.path.isfile(path):
            return path
        served = served_copy(path, request.headers.get("Accept-Encoding"))
        if served is None:
            return path
        encoding, self._mc_copy = served
        self.set_header("Content-Encoding", encoding)  # type: ignore[attr-defined]
        return self._mc_copy

    def get_content_size(self) -> int:
        if self._mc_copy is not None:  # tornado measured the plain file while validating
            return os.path.getsize(self._mc_copy)
        return int(super().get_content_size())  # type: ignore[misc]

    def get_content_type(self) -> str:
        """The plain file's type (the copy's name would say application/gzip)."""
        served = self.absolute_path  # type: ignore[has-type]
        self.absolute_path = self._mc_plain or served
        try:
            return str(super().get_content_type())  # type: ignore[misc]
        finally:
            self.absolute_path = served

    def _mc_is_immutable(self) -> bool:
        path = getattr(self, "path", "") or ""
        arguments = self.request.arguments  # type: ignore[attr-defined]
        return self._mc_immutable or "v" in arguments or bool(_HASHED_NAME.search(path))

    def set_headers(self) -> None:
        super().set_headers()  # type: ignore[misc]
        self.set_header("Vary", "Accept-Encoding")  # type: ignore[attr-defined]
        if self._mc_is_immutable():
            self.set_header("Cache-Control", IMMUTABLE)  # type: ignore[attr-defined]


def static_folders() -> list[str]:
    """The folders Voilà serves a page's files from: its scripts, its templates' files,
    the JupyterLab extensions (the widget manager)."""
    from voila.paths import collect_static_paths
    from voila.utils import get_voila_labextensions_path

    folders = [*collect_static_paths(["voila", "nbconvert"], "base"),
               *collect_static_paths(["voila", "nbconvert"], "lab"),
               *get_voila_labextensions_path()]
    return list(dict.fromkeys(f for f in folders if os.path.isdir(f)))


def _copy_of(job: tuple[str, Path | None, str]) -> tuple[str, int, int] | None:
    path, folder, encoding = job
    copy = compressed_copy(path, folder, encoding)
    if copy is None:
        return None
    return encoding, os.path.getsize(path), os.path.getsize(copy)


def warm(folders: list[str] | None = None, folder: Path | None = None,
         encodings: tuple[str, ...] | None = None) -> dict[str, tuple[int, int, int]]:
    """Make the copy of every file worth one under ``folders`` now, in each encoding (at
    install: no visitor waits for it), on every core: per encoding (copies, bytes of the
    files, bytes of their copies)."""
    from concurrent.futures import ProcessPoolExecutor

    if encodings is None:
        encodings = tuple(e for e in ENCODINGS if e != "br" or has_brotli())
    jobs = [(os.path.join(here, name), folder, encoding)
            for top in (folders if folders is not None else static_folders())
            for here, _, names in os.walk(top) for name in names for encoding in encodings]
    out = dict.fromkeys(encodings, (0, 0, 0))
    with ProcessPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1))) as pool:
        for made in pool.map(_copy_of, jobs, chunksize=4):
            if made is not None:
                encoding, plain, packed = made
                copies, plain_sum, packed_sum = out[encoding]
                out[encoding] = (copies + 1, plain_sum + plain, packed_sum + packed)
    return out


def _handler_classes() -> dict[str, type]:
    from jupyter_server.base.handlers import FileFindHandler
    from voila.static_file_handler import MultiStaticFileHandler, TemplateStaticFileHandler

    class VoilaStaticFiles(CompactFiles, MultiStaticFileHandler):  # type: ignore[misc]  # Voila: no types
        """Voilà's scripts, also under ``mc-<version>/`` (cached for good there)."""

        def parse_url_path(self, url_path: str) -> str:
            first, sep, rest = url_path.partition("/")
            if sep and first.startswith(VERSION_PREFIX):
                self._mc_immutable = first == VERSION_PREFIX + current_version()
                url_path = rest
            parsed: str = super().parse_url_path(url_path)
            return parsed

    class TemplateFiles(CompactFiles, TemplateStaticFileHandler):  # type: ignore[misc]  # Voila: no types
        """The template's styles and scripts."""

    class LabextensionFiles(CompactFiles, FileFindHandler):
        """The widget manager's and other extensions' files."""

    return {"MultiStaticFileHandler": VoilaStaticFiles,
            "TemplateStaticFileHandler": TemplateFiles,
            "FileFindHandler": LabextensionFiles}


def install() -> None:
    """Make Voilà's application (built after this) serve its files with these handlers."""
    try:
        import voila.app as app
    except ImportError:
        return
    if getattr(app, "_mathcards_compact", False):
        return
    for name, cls in _handler_classes().items():
        setattr(app, name, cls)
    app._mathcards_compact = True


def main() -> None:
    """``python -m mathcards.widgets.network``: make every compressed copy now."""
    for encoding, (copies, plain, packed) in warm().items():
        print(f"{copies} {encoding} copies of Voilà's files in {cache_dir()}: "
              f"{plain / 1e6:.1f} MB served as {packed / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
