"""A page's files compressed and cached for good, on a real Voilà server started as
``make play`` starts it (issue 29; mathcards/widgets/network.py).

- Every script and style of a play page of at least ``MIN_SIZE`` bytes reaches Chromium
  compressed (brotli: Chromium takes it from 127.0.0.1); fetched again with brotli, with
  gzip only and without ``Accept-Encoding`` the bodies decode to the same bytes; a byte
  range is served from the plain file.
- The files whose address names their content are cached for a year, immutable; a warm
  visit asks the server for at most 20 things (the page, its kernel, no script).
- A browser that takes no compression still gets a working page.
"""

from __future__ import annotations

import gzip
import urllib.request

import brotli

from mathcards.widgets.network import COMPRESSIBLE, IMMUTABLE, MIN_SIZE
from tests.browser.conftest import wait_for_first_widget

PAGE = "play_sums.ipynb?student=guest"
STATIC = ("/voila/static/", "/voila/labextensions/", "/voila/templates/")


def _get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.status, {k.lower(): v for k, v in response.headers.items()}, \
            response.read()


def server_responses(context, url: str) -> dict[str, dict]:
    """Open ``url`` in a new tab until its first control; every response the server
    sent (not the browser's cache), by address."""
    page = context.new_page()
    try:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        responses: dict[str, dict] = {}
        cached: set[str] = set()
        ids: dict[str, str] = {}

        def on_response(event: dict) -> None:
            ids[event["requestId"]] = event["response"]["url"]
            responses[event["requestId"]] = event["response"]

        cdp.on("Network.responseReceived", on_response)
        cdp.on("Network.requestServedFromCache", lambda e: cached.add(e["requestId"]))
        page.goto(url, wait_until="commit")
        wait_for_first_widget(page, timeout=120_000)
        page.wait_for_load_state("networkidle", timeout=60_000)
        return {r["url"]: r for rid, r in responses.items()
                if rid not in cached and not r["url"].startswith("data:")
                and not (r.get("fromDiskCache") or r.get("fromMemoryCache"))}
    finally:
        page.close(run_before_unload=True)


def _headers(response: dict) -> dict[str, str]:
    return {k.lower(): v for k, v in response["headers"].items()}


def _static(url: str) -> bool:
    return any(part in url for part in STATIC)


def test_files_compressed_and_cached_for_good(browser, voila_server):
    context = browser.new_context()
    try:
        cold = server_responses(context, voila_server.page(PAGE))
        files = {url: _headers(r) for url, r in cold.items() if _static(url)}
        assert len(files) > 50, sorted(cold)
        worth = {url: h for url, h in files.items()
                 if any(url.split("?")[0].endswith(ext) for ext in COMPRESSIBLE)}
        for url, headers in worth.items():
            assert headers.get("vary") == "Accept-Encoding", url
            assert headers.get("cache-control") == IMMUTABLE, (url, headers)
        gzipped = [url for url, h in worth.items() if h.get("content-encoding") == "br"]
        assert len(gzipped) > 50
        for url in gzipped:
            status, plain_headers, plain = _get(url)
            assert status == 200 and "content-encoding" not in plain_headers, url
            assert int(plain_headers["content-length"]) == len(plain)
            status, gz_headers, packed = _get(url, **{"Accept-Encoding": "gzip, deflate"})
            assert gz_headers.get("content-encoding") == "gzip", url
            assert int(gz_headers["content-length"]) == len(packed) < len(plain)
            assert gzip.decompress(packed) == plain, url
            status, br_headers, smaller = _get(url, **{"Accept-Encoding": "gzip, br"})
            assert br_headers.get("content-encoding") == "br", url
            assert int(br_headers["content-length"]) == len(smaller) <= len(packed)
            assert brotli.decompress(smaller) == plain, url
        # what was not compressed is too small to gain from it
        for url in set(worth) - set(gzipped):
            assert len(_get(url)[2]) < MIN_SIZE * 1.5, url
        # a byte range comes from the plain file, even to a client that takes gzip
        url = gzipped[0]
        _, _, plain = _get(url)
        status, headers, part = _get(url, **{"Accept-Encoding": "gzip, br",
                                             "Range": "bytes=10-99"})
        assert status == 206 and "content-encoding" not in headers and part == plain[10:100]

        warm = server_responses(context, voila_server.page(PAGE))
        assert len(warm) <= 20, sorted(warm)
        assert not [url for url in warm if _static(url)], sorted(warm)
    finally:
        context.close()


def test_a_browser_without_compression_gets_a_working_page(browser, voila_server):
    context = browser.new_context(extra_http_headers={"Accept-Encoding": "identity"})
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        encodings: list[tuple[str, str | None]] = []
        page.on("response", lambda r: encodings.append(
            (r.url, r.headers.get("content-encoding"))))
        page.goto(voila_server.page(PAGE), wait_until="commit")
        button = wait_for_first_widget(page, timeout=120_000)
        assert button.is_enabled()
        assert len([url for url, _ in encodings if _static(url)]) > 50
        assert [(url, enc) for url, enc in encodings if enc] == []
        assert errors == []
        page.close(run_before_unload=True)
    finally:
        context.close()


def test_a_play_page_loads_no_code_colours(browser, voila_server):
    """A play page loads no syntax-colour extension (jupyterlab_pygments: three requests
    of a cold visit; a play page shows no code). Issue 29 item 3."""
    assert "jupyterlab_pygments" not in _get(voila_server.page(PAGE))[2].decode("utf-8")
    context = browser.new_context()
    try:
        responses = server_responses(context, voila_server.page(PAGE))
    finally:
        context.close()
    assert not [u for u in responses if "/labextensions/jupyterlab_pygments/" in u]
    assert [u for u in responses if "/labextensions/anywidget/" in u]  # the others still load


def test_the_kernel_websocket_is_compressed(browser, voila_server):
    """The page's kernel websocket is compressed (permessage-deflate, lessons/voila.json's
    ``websocket_compression_options``): the widgets' states a page asks for when it loads
    (about 95 KB for the Sums table) cross a student's link as about 13 KB. Chromium's
    DevTools show a websocket's frames uncompressed, so the test reads the handshake that
    agreed on it and then plays a move over the compressed socket."""
    context = browser.new_context()
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        sockets: dict[str, str] = {}
        agreed: dict[str, str] = {}
        cdp.on("Network.webSocketCreated", lambda e: sockets.update({e["requestId"]: e["url"]}))
        cdp.on("Network.webSocketHandshakeResponseReceived", lambda e: agreed.update(
            {e["requestId"]: _headers(e["response"]).get("sec-websocket-extensions", "")}))
        page.goto(voila_server.page(PAGE), wait_until="commit")
        first = wait_for_first_widget(page, timeout=120_000)
        kernel = [rid for rid, url in sockets.items() if "/channels" in url]
        assert kernel, sockets
        assert all("permessage-deflate" in agreed.get(rid, "") for rid in kernel), agreed
        # the page works over it: its first control is pressed and the table answers
        render = page.locator(".mc-sync").first.get_attribute("data-render")
        first.click()
        page.wait_for_function(
            "r => { const s = document.querySelector('.mc-sync');"
            " return s && s.getAttribute('data-render') !== r; }", arg=render, timeout=60_000)
        page.close(run_before_unload=True)
    finally:
        context.close()
