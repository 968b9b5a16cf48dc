"""Voilà's files compressed and cached for good (issue 29, mathcards/widgets/network.py):
the pieces on their own. tests/browser/test_network_page.py checks them on a real server."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

from mathcards.widgets import network


@pytest.mark.parametrize(("header", "takes"), [
    ("gzip, deflate, br", True),
    ("deflate, gzip;q=0.5", True),
    ("GZIP", True),
    ("gzip;q=0", False),
    ("gzip;q=0.0, deflate", False),
    ("identity", False),
    ("", False),
    (None, False),
    ("x-gzip", False),
    ("gzip;q=nonsense", False),
])
def test_accept_encoding(header, takes):
    assert network.accepts_gzip(header) is takes


@pytest.mark.parametrize(("header", "encoding"), [
    ("gzip, deflate, br, zstd", "br"),  # Chromium at an HTTPS address or 127.0.0.1
    ("gzip, deflate", "gzip"),  # Chromium at a plain-HTTP address on the school's network
    ("br;q=0, gzip", "gzip"),
    ("BR", "br"),
    ("br;q=0.1, gzip;q=1", "br"),  # the smaller one whenever it is taken at all
    ("identity", None),
    ("", None),
    (None, None),
    ("brotli, gzip;q=0", None),
])
def test_the_encoding_sent_is_brotli_where_taken_else_gzip(header, encoding):
    assert network.best_encoding(header) == encoding


def test_the_brotli_copy_decodes_to_the_file_and_is_smaller_than_gzips(tmp_path):
    import brotli

    source = tmp_path / "app.js"
    body = "".join(f"function f{i}(n) {{ return n + {i * 7 % 13}; }}\n"
                   for i in range(2000)).encode()
    source.write_bytes(body)
    br = network.compressed_copy(str(source), tmp_path / "cache", "br")
    gz = network.compressed_copy(str(source), tmp_path / "cache", "gzip")
    assert br is not None and gz is not None and br != gz
    assert brotli.decompress(Path(br).read_bytes()) == body
    assert gzip.decompress(Path(gz).read_bytes()) == body
    assert os.path.getsize(br) < os.path.getsize(gz)
    assert network.compressed_copy(str(source), tmp_path / "cache", "br") == br  # kept
    # the gzip copy is zopfli's: smaller than gzip -9's, read by any gzip decoder
    assert os.path.getsize(gz) < len(gzip.compress(body, compresslevel=9))


def test_a_request_never_waits_for_brotli_or_zopfli(tmp_path):
    """A request whose copies the install did not make gets a gzip -9 copy made then
    (milliseconds), not brotli's or zopfli's (seconds for Voilà's largest scripts, with
    a class waiting on the server's one loop); once ``warm`` made them, the smallest the
    browser takes."""
    import brotli

    source = tmp_path / "static" / "app.js"
    source.parent.mkdir()
    body = "".join(f"const v{i} = {i * 31 % 97};\n" for i in range(3000)).encode()
    source.write_bytes(body)
    cache = tmp_path / "cache"
    chromium = "gzip, deflate, br, zstd"
    encoding, copy = network.served_copy(str(source), chromium, cache)
    assert encoding == "gzip" and copy.endswith(".gz9")
    assert gzip.decompress(Path(copy).read_bytes()) == body
    assert sorted(p.suffix for p in cache.iterdir()) == [".gz9"]  # nothing slow made
    network.warm([str(source.parent)], cache)
    encoding, copy = network.served_copy(str(source), chromium, cache)
    assert encoding == "br" and brotli.decompress(Path(copy).read_bytes()) == body
    encoding, copy = network.served_copy(str(source), "gzip, deflate", cache)
    assert encoding == "gzip" and copy.endswith(".gz") and \
        gzip.decompress(Path(copy).read_bytes()) == body
    assert network.served_copy(str(source), "identity", cache) is None


def test_the_copies_live_in_the_environment_that_serves_the_files():
    """An image's build makes them where every server of the image looks, whatever home
    folder a hub mounts for each student (here: this venv, which is writable)."""
    import sys

    assert network.cache_dir().is_relative_to(Path(sys.prefix))


def test_the_copy_decodes_to_the_file(tmp_path):
    source = tmp_path / "app.js"
    body = ("function f(n) { return n + 1; }\n" * 400).encode()
    source.write_bytes(body)
    copy = network.compressed_copy(str(source), tmp_path / "cache")
    assert copy is not None and os.path.getsize(copy) < len(body) // 4
    with open(copy, "rb") as f:
        assert gzip.decompress(f.read()) == body
    assert os.stat(copy).st_mtime_ns == source.stat().st_mtime_ns  # Last-Modified kept
    # the same file again: the same copy, not a new one
    assert network.compressed_copy(str(source), tmp_path / "cache") == copy
    # the file changed: a new copy of the new content
    source.write_bytes(body + b"// more\n" * 10)
    newer = network.compressed_copy(str(source), tmp_path / "cache")
    assert newer != copy
    with open(newer, "rb") as f:
        assert gzip.decompress(f.read()) == source.read_bytes()


def test_no_copy_of_what_gains_nothing(tmp_path):
    small = tmp_path / "small.js"
    small.write_bytes(b"x=1;")
    font = tmp_path / "font.woff2"
    font.write_bytes(os.urandom(4096))
    random_js = tmp_path / "noise.js"
    random_js.write_bytes(os.urandom(8192))  # gzip makes it bigger
    for path in (small, font, random_js, tmp_path / "missing.js"):
        assert network.compressed_copy(str(path), tmp_path / "cache") is None


def test_no_copy_where_none_can_be_written(tmp_path):
    source = tmp_path / "app.css"
    source.write_bytes(b"body { color: black; }\n" * 200)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    assert network.compressed_copy(str(source), blocker / "cache") is None


def test_version_follows_the_files(tmp_path):
    (tmp_path / "voila.js").write_text("one")
    first = network.static_version([str(tmp_path)])
    assert network.static_version([str(tmp_path)]) == first
    (tmp_path / "1187.voila.js").write_text("a chunk")
    assert network.static_version([str(tmp_path)]) != first


def test_page_config_keeps_voilas_address_where_voila_is_an_extension():
    """In this process no Voilà application runs (as in JupyterLab with Voilà's extension,
    a hub's teacher server): the handlers that serve mc-<version>/ are not there."""
    config = {"fullStaticUrl": "/base/voila/static", "other": 1}
    assert not network.serves_versions()
    out = network.page_config_hook(dict(config), "/base/", {}, None, None, "play_sums.ipynb")
    assert out == config


def test_a_play_page_loads_no_code_colours():
    """A play page shows no code: its page goes without jupyterlab_pygments' three files; a
    lesson (the teacher's guide has a YAML block) keeps it. Issue 29 item 3."""
    def config():
        return {"federated_extensions": [{"name": "anywidget"}, {"name": network.CODE_COLOURS},
                                         {"name": "@jupyter-widgets/jupyterlab-manager"}]}

    out = network.page_config_hook(config(), "/base/", {}, None, None, "play_sums.ipynb")
    assert [x["name"] for x in out["federated_extensions"]] == [
        "anywidget", "@jupyter-widgets/jupyterlab-manager"]
    for lesson in ("teachers.ipynb", "sums.ipynb", "sub/play_notes/x.ipynb"):
        kept = network.page_config_hook(config(), "/base/", {}, None, None, lesson)
        assert kept["federated_extensions"] == config()["federated_extensions"]


def test_page_config_names_the_version(monkeypatch):
    monkeypatch.setattr(network, "serves_versions", lambda: True)
    config = {"fullStaticUrl": "/base/voila/static", "other": 1}
    out = network.page_config_hook(config, "/base/", {}, None, None, "play_sums.ipynb")
    version = network.current_version()
    assert out["fullStaticUrl"] == f"/base/voila/static/mc-{version}"
    assert out["other"] == 1
    again = network.page_config_hook(dict(out), "/base/", {}, None, None, "x.ipynb")
    assert again["fullStaticUrl"] == out["fullStaticUrl"]  # never twice


def test_warm_makes_every_copy_at_once(tmp_path):
    top = tmp_path / "static"
    (top / "sub").mkdir(parents=True)
    (top / "a.js").write_bytes(b"let a = 1;\n" * 500)
    (top / "sub" / "b.css").write_bytes(b".b { color: red; }\n" * 500)
    (top / "tiny.js").write_bytes(b"1")
    (top / "font.woff2").write_bytes(b"\0" * 5000)
    made = network.warm([str(top)], tmp_path / "cache")
    sizes = (top / "a.js").stat().st_size + (top / "sub" / "b.css").stat().st_size
    assert set(made) == {"br", "gzip"}
    for copies, plain, packed in made.values():
        assert copies == 2 and plain == sizes and 0 < packed < plain // 10
    for name in ("a.js", "sub/b.css"):  # the copies a request then finds, not new ones
        copy = network.compressed_copy(str(top / name), tmp_path / "cache")
        assert copy is not None
        assert gzip.decompress(Path(copy).read_bytes()) == (top / name).read_bytes()
    assert len(list((tmp_path / "cache").iterdir())) == 4


def test_the_folders_voila_serves_exist():
    folders = network.static_folders()
    assert any(os.path.isfile(os.path.join(f, "voila.js")) for f in folders)
    assert any("labextensions" in f for f in folders)


@pytest.mark.parametrize("path, hashed", [
    ("static/121.5c5a442bc10a67ee.js", True),
    ("static/remoteEntry.be18471aaf567c023b03.js", True),
    ("anywidget/static/remoteEntry.698dcaf7.js", True),  # anywidget's eight hex digits
    ("static/remoteEntry.js", False),
    ("static/style.js", False),
    ("static/voila.css", False),
    ("static/jquery-3.6.0.min.js", False),
    ("static/1234567.js", False),
])
def test_a_content_hash_in_the_name_is_what_makes_a_file_immutable(path, hashed):
    assert bool(network._HASHED_NAME.search(path)) is hashed
