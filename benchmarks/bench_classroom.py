"""A whole class opening one page at once, on one server started as ``make play``.

    python -m benchmarks.bench_classroom [--sizes 30 60] [--runs 3] [--before DIR]
                                         [--warmed] [--browser]

What issue 29 item 4 asks: N first visits to ``play_sums.ipynb`` in the same
second, class not warmed (only the pools ``lessons/voila.json`` keeps: 2 kernels
of each play page, 1 of the bare page), each visitor a browser of its own (its own
cookies and ``?student=``) sent as a plain concurrent HTTP request (a browser per
student would not fit on 2 cores), against the same burst of the bare one-button
page (``bare_button.ipynb``) on the same server in the same run. A page counts as
completed when the whole page arrived with its widget output and no error cell
(the page complete: what a student's browser needs before it can draw anything).
Per burst: completed / failed, median and slowest time to a complete page, the CPU
seconds of Voilà and its kernels until the server is quiet again, their
proportional memory (PSS: pages forked kernels share are counted once) after it,
and the load average when it began.

Each run starts every server afresh: this checkout as ``make play`` starts it; the
same with ``--ClassroomKernelManager.fork_kernels=False`` (kernels started as
Voilà starts them, as before issue 29 item 4); and with ``--before DIR`` another
checkout with its own ``.venv`` (its bursts at the first size). The servers' order
and which burst goes first alternate from run to run; the summary gives each
run's ratio of slowest pages, then the median over the runs. Before measuring, the
bytecode of this checkout is written (``compileall``): with PYTHONDONTWRITEBYTECODE
set and sources newer than their .pyc, every kernel would compile MathCards again.
After each burst its kernels are shut down the way a closed tab does
(``/voila/api/shutdown``), so bursts do not add up.

``--browser``: one visitor of every burst is a real Chromium (its time to the first
usable control). ``--warmed``: also the class warmed (``make play
CLASS=N:play_sums``) against the bare page on the same server, and the visitor
right after the first against one fresh bare page.

Targets (ratios in one run): 0 failed pages; the slowest play page ≤ 1.0× the
bare page's slowest at 30, ≤ 1.2× at 60 (class not warmed); with the class warmed
≤ 1×; the visitor right after the first ≤ 1.2× a fresh bare page.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import contextlib
import http.cookiejar
import json
import os
import re
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from benchmarks.bench_pages import _cpu_seconds, wait_quiet
from tests.browser.conftest import FIRST_WIDGET, launch_chromium
from tests.browser.server import HOST, REPO, VoilaServer, isolated_env

HERE = Path(__file__).resolve().parent
BARE = "bare_button.ipynb"
PAGE = "play_sums.ipynb"
KERNEL = re.compile(r'kernelId["\']?\s*[:=]\s*["\']([0-9a-f-]{36})')


def _rss_mb(root: int) -> float:
    """Resident memory (MB) of process ``root`` and all its descendants."""
    parent: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/statm") as f:
                pages = int(f.read().split()[1])
        except (OSError, IndexError, ValueError):
            continue
        parent[int(entry)] = int(fields[1])
        rss[int(entry)] = pages
    total = 0
    for pid, pages in rss.items():
        p = pid
        while p > 1 and p != root:
            p = parent.get(p, 0)
        if p == root:
            total += pages
    return total * os.sysconf("SC_PAGE_SIZE") / 2**20


def _pss_mb(root: int) -> float:
    """Proportional memory (MB) of ``root`` and its descendants: pages shared between
    processes (forked kernels share their imports) counted once in all."""
    total = 0
    for pid in _tree(root):
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                for line in f:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
                        break
        except OSError:
            continue
    return total / 1024


def _tree(root: int) -> list[int]:
    parent: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent[int(entry)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found = []
    for pid in parent:
        p = pid
        while p > 1 and p != root:
            p = parent.get(p, 0)
        if p == root:
            found.append(pid)
    return found


def fetch(server: VoilaServer, notebook: str, student: str) -> tuple[bool, float, str]:
    """(complete, seconds, kernel id) for one visitor's page, read to its end. Each visitor
    is a browser of its own (its cookies); a load the server answers with a page that
    reloads a moment later (too many pages loading from one address) reloads, as the
    page's script makes a browser do."""
    start = time.perf_counter()
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    try:
        for attempt in range(30):
            if attempt:
                time.sleep(1.5)
            with opener.open(server.page(f"{notebook}?student={student}"),
                             timeout=600) as response:
                html = response.read().decode("utf-8", "replace")
                status = response.status
            if 'content="wait-and-reload"' not in html:
                break
    except (urllib.error.URLError, OSError, TimeoutError):
        return False, time.perf_counter() - start, ""
    seconds = time.perf_counter() - start
    match = KERNEL.search(html)
    ok = (status == 200 and "widget-view+json" in html and "There was an error" not in html
          and match is not None)
    return ok, seconds, match.group(1) if match else ""


def shut_down(server: VoilaServer, kernels: list[str]) -> None:
    """Close the visitors' tabs: Voilà's shutdown request for each kernel."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.open(server.url("voila/tree/"), timeout=60).read()
    xsrf = next((c.value for c in jar if c.name == "_xsrf"), "")
    for kernel in kernels:
        request = urllib.request.Request(server.url(f"voila/api/shutdown/{kernel}"),
                                         method="POST", headers={"X-XSRFToken": xsrf})
        with contextlib.suppress(urllib.error.URLError, OSError):
            opener.open(request, timeout=60).read()


def browser_tti(browser, server: VoilaServer, notebook: str, student: str,
                query: str = "") -> float:
    """Seconds from the request of ``notebook`` for ``student`` (and ``query``: more of
    the address, e.g. ``lang=es``) to its first usable control, in a fresh context."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        start = time.perf_counter()
        more = f"&{query}" if query else ""
        page.goto(server.page(f"{notebook}?student={student}{more}"), wait_until="commit",
                  timeout=600_000)
        page.locator(FIRST_WIDGET).filter(visible=True).first.wait_for(
            state="visible", timeout=600_000)
        return time.perf_counter() - start
    finally:
        page.close(run_before_unload=True)
        context.close()


def burst(server: VoilaServer, notebook: str, n: int, tag: str,
          browser=None) -> dict[str, float]:
    """N visitors at once (one of them a real browser when ``browser`` is given)."""
    wait_quiet(server, timeout=300)
    root = server.process.pid
    cpu0 = _cpu_seconds(root)
    gate = threading.Barrier(n)

    def visitor(i: int):
        gate.wait()
        return fetch(server, notebook, f"{tag}{i}")

    tti = float("nan")
    with cf.ThreadPoolExecutor(n) as pool:
        futures = [pool.submit(visitor, i) for i in range(n - (1 if browser else 0))]
        if browser is not None:
            gate.wait()
            tti = browser_tti(browser, server, notebook, f"{tag}browser")
        results = [f.result() for f in futures]
    wait_quiet(server, timeout=600)
    cpu = _cpu_seconds(root) - cpu0
    rss = _rss_mb(root)
    pss = _pss_mb(root)
    times = [s for ok, s, _ in results if ok]
    out = {
        "n": n, "completed": len(times) + (0 if tti != tti else 1),
        "failed": sum(1 for ok, _, _ in results if not ok),
        "median": statistics.median(times) if times else float("nan"),
        "slowest": max(times) if times else float("nan"),
        "cpu": cpu, "rss": rss, "pss": pss, "tti": tti,
    }
    shut_down(server, [k for _, _, k in results if k])
    return out


def _site(tmp: Path, checkout: Path = REPO, name: str = "site") -> Path:
    root = tmp / name
    root.mkdir()
    lessons = checkout / "lessons"
    for notebook in lessons.glob("*.ipynb"):
        shutil.copy(notebook, root / notebook.name)
    shutil.copytree(lessons / "exercises", root / "exercises")
    shutil.copy(HERE / BARE, root / BARE)
    return root


def pooled(root: Path, checkout: Path = REPO) -> int:
    """How many pages of ``root`` Voilà preheats (every page but the checkout's
    ``preheat_denylist``: the teacher's pages)."""
    config = json.loads((checkout / "lessons" / "voila.json").read_text())
    denied = set(config.get("VoilaKernelManager", {}).get("preheat_denylist", []))
    return sum(1 for page in root.glob("*.ipynb") if page.name not in denied)


def compile_bytecode(checkout: Path) -> None:
    """Write the checkout's bytecode now: with PYTHONDONTWRITEBYTECODE set (as on this
    machine) and sources newer than their .pyc, every kernel would compile MathCards'
    modules again, which a server where Python may write its cache does once."""
    python = checkout / ".venv" / "bin" / "python"
    subprocess.run([str(python), "-m", "compileall", "-q", "mathcards", "widgets"],
                   cwd=checkout, check=False, stdout=subprocess.DEVNULL)


class CheckoutServer(VoilaServer):
    """``make play``'s command from another checkout with its own venv (the 'before')."""

    def __init__(self, state_dir: Path, root_dir: Path, checkout: Path):
        super().__init__(state_dir, root_dir=root_dir)
        self.checkout = checkout

    def start(self, timeout: float = 90.0) -> VoilaServer:
        self.state_dir.mkdir(parents=True, exist_ok=True)
        lessons = self.checkout / "lessons"
        argv = [str(self.checkout / ".venv" / "bin" / "voila"), "--no-browser",
                f"--Voila.ip={HOST}", f"--port={self.port}",
                f"--Voila.root_dir={self.root_dir}", f"--Voila.config_file_paths={lessons}"]
        # make play's forked kernels, where that checkout's make play forks them
        fork = "--ClassroomKernelManager.fork_kernels=True"
        makefile = self.checkout / "Makefile"
        if makefile.exists() and fork in makefile.read_text():
            argv.append(fork)
        env = isolated_env(self.state_dir)
        env["JUPYTER_PATH"] = str(lessons / "share" / "jupyter")
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(argv, cwd=self.checkout, env=env, stdout=log,
                                            stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, start_new_session=True)
        return self.wait_started(timeout)


def _start(tmp: Path, root: Path, name: str, warm: str | None,
           extra: list[str] | None = None) -> VoilaServer:
    if warm:
        os.environ["MATHCARDS_CLASS"] = warm
    try:
        server = VoilaServer(tmp / name, root_dir=root, extra_args=extra).start()
    finally:
        os.environ.pop("MATHCARDS_CLASS", None)
    return server


def _wait_warm(server: VoilaServer, pools: int, timeout: float = 900) -> float:
    start = time.monotonic()
    server.wait_for_pools(pools, timeout=timeout)
    wait_quiet(server, timeout=timeout)
    return time.monotonic() - start


# the servers an unwarmed class is measured on, each started afresh in every run
FORKED = "forked kernels (`make play`)"
USUAL = "kernels started as Voilà starts them"
BEFORE = "before"


def unwarmed(args, tmp: Path, browser) -> tuple[list[tuple[int, str, str, dict]], list[str]]:
    """Bare and play bursts, class not warmed, on each server, ``args.runs`` times; the
    servers' order and which burst goes first alternate from run to run."""
    rows: list[tuple[int, str, str, dict]] = []
    notes: list[str] = []
    servers: list[tuple[str, Path | None, list[str]]] = [
        (FORKED, None, []), (USUAL, None, ["--ClassroomKernelManager.fork_kernels=False"])]
    if args.before:
        servers.append((BEFORE, Path(args.before), []))
    for run in range(args.runs):
        order = servers[run % len(servers):] + servers[:run % len(servers)]
        for label, checkout, extra in order:
            name = f"r{run}-{label.split()[0]}"
            if checkout is None:
                root = _site(tmp, REPO, name + "-site")
                server = _start(tmp, root, name, None, extra)
            else:
                root = _site(tmp, checkout, name + "-site")
                server = CheckoutServer(tmp / name, root, checkout).start()
            pools = pooled(root, checkout or REPO)
            try:
                ready = _wait_warm(server, pools)
                if run == 0:
                    notes.append(f"{label}: pools ready in {ready:.0f} s, "
                                 f"{_rss_mb(server.process.pid):.0f} MB resident (RSS), "
                                 f"{_pss_mb(server.process.pid):.0f} MB proportional (PSS) "
                                 "before any visitor.")
                sizes = args.sizes if checkout is None else args.sizes[:1]
                for n in sizes:
                    pages = [(BARE, "b"), (PAGE, "s")]
                    if run % 2:
                        pages.reverse()
                    for notebook, tag in pages:
                        load = os.getloadavg()[0]
                        result = burst(server, notebook, n, f"{tag}{n}r{run}-",
                                       browser=browser)
                        result["load"] = load
                        rows.append((run, label, f"{notebook}, {n} at once", result))
                        print(f"| {run + 1} | {label} " + _row(f"{notebook}, {n} at once",
                                                             result) + f" {load:.1f} |",
                              flush=True)
            finally:
                server.stop()
    return rows, notes


def warmed(args, tmp: Path, browser) -> tuple[list[tuple[str, dict]], list[str]]:
    """The class warmed (``make play CLASS=N:play_sums``) against the bare page on the same
    server, and the visitor right after the first against a fresh bare page."""
    rows: list[tuple[str, dict[str, float]]] = []
    notes: list[str] = []
    root = _site(tmp, REPO, "warm-site")
    pools = pooled(root)
    server = _start(tmp, root, "plain", None)
    try:
        _wait_warm(server, pools)
        wait_quiet(server, timeout=300)
        first = fetch(server, PAGE, "first")
        second = fetch(server, PAGE, "second")
        wait_quiet(server, timeout=300)
        fetch(server, BARE, "bare-pool")  # empty the bare page's pool ...
        bare_fresh = fetch(server, BARE, "bare-fresh")  # ... so this one starts fresh
        shut_down(server, [first[2], second[2], bare_fresh[2]])
        notes.append(
            f"One visitor then another at once: {first[1]:.2f} s and {second[1]:.2f} s "
            f"for {PAGE}; a fresh bare page {bare_fresh[1]:.2f} s: the second visitor "
            f"waits {second[1] / bare_fresh[1]:.2f}× a fresh bare page (target ≤ 1.2×).")
    finally:
        server.stop()
    for n in args.sizes:
        server = _start(tmp, root, f"class{n}", f"{n}:play_sums")
        try:
            ready = _wait_warm(server, pools)
            notes.append(f"`make play CLASS={n}:play_sums`: ready in {ready:.0f} s, "
                         f"{_rss_mb(server.process.pid):.0f} MB resident before the class.")
            play = burst(server, PAGE, n, f"w{n}-", browser=browser)
            bare = burst(server, BARE, n, f"v{n}-", browser=browser)
            rows += [(f"{PAGE}, {n} at once, class warmed", play),
                     (f"bare page, {n} at once (same server)", bare)]
            notes.append(f"N={n}, class warmed: slowest {PAGE} / slowest bare page "
                         f"{play['slowest'] / bare['slowest']:.2f}× (target ≤ 1×).")
        finally:
            server.stop()
    return rows, notes


def _row(name: str, r: dict) -> str:
    tti = "–" if r["tti"] != r["tti"] else f"{r['tti']:.2f}"
    return (f"| {name} | {r['completed']:.0f} | {r['failed']:.0f} | {r['median']:.2f} | "
            f"{r['slowest']:.2f} | {r['cpu']:.0f} | {r['pss']:.0f} | {tti} |")


HEADER = ("| burst | completed | failed | median (s) | slowest (s) | CPU (s) | "
          "memory after, PSS (MB) | browser: first control (s) |\n"
          "|---|---:|---:|---:|---:|---:|---:|---:|")


def report_unwarmed(args, rows: list[tuple[int, str, str, dict]]) -> list[str]:
    by = {(run, label, name): r for run, label, name, r in rows}
    labels = list(dict.fromkeys(label for _, label, _, _ in rows))
    lines = []
    print("Every burst, in the order run (servers and bursts alternate between runs):\n")
    print("| run | server | burst | completed | failed | median (s) | slowest (s) | CPU (s) | "
          "memory after, PSS (MB) | browser: first control (s) | load |")
    print("|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for run, label, name, r in rows:
        print(f"| {run + 1} | {label} " + _row(name, r) + f" {r['load']:.1f} |")
    print()
    print("Medians of the runs (slowest page of each burst; ratios taken within each run, "
          "then the median):\n")
    print("| server | class | play slowest (s) | bare slowest (s) | play / bare, same "
          "server | play / bare on the usual kernels | failed | CPU play / bare (s) | "
          "load |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label in labels:
        for n in args.sizes:
            runs = [run for run in range(args.runs)
                    if (run, label, f"{PAGE}, {n} at once") in by]
            if not runs:
                continue
            play = [by[(run, label, f"{PAGE}, {n} at once")] for run in runs]
            bare = [by[(run, label, f"{BARE}, {n} at once")] for run in runs]
            usual = [by.get((run, USUAL, f"{BARE}, {n} at once")) for run in runs]
            pairs = list(zip(play, bare, strict=True))
            ratio = statistics.median(p["slowest"] / b["slowest"] for p, b in pairs)
            cross = [p["slowest"] / u["slowest"] for p, u in zip(play, usual, strict=True) if u]
            failed = sum(p["failed"] + b["failed"] for p, b in pairs)
            loads = [*(p["load"] for p in play), *(b["load"] for b in bare)]
            line = (f"| {label} | {n} | {statistics.median(p['slowest'] for p in play):.2f} | "
                    f"{statistics.median(b['slowest'] for b in bare):.2f} | {ratio:.2f}× | "
                    f"{statistics.median(cross):.2f}× | {failed:.0f} | "
                    f"{statistics.median(p['cpu'] for p in play):.0f} / "
                    f"{statistics.median(b['cpu'] for b in bare):.0f} | "
                    f"{statistics.median(loads):.1f} |")
            print(line)
            lines.append(line)
    print()
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="*", type=int, default=[30, 60])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--before", default="",
                        help="another checkout with its own .venv: its bare and play bursts "
                        "(the first size) in the same run")
    parser.add_argument("--warmed", action="store_true",
                        help="also the class warmed (CLASS=N) and the visitor after the first")
    parser.add_argument("--browser", action="store_true",
                        help="one visitor of every burst is a real Chromium (its first control)")
    args = parser.parse_args(argv)
    compile_bytecode(REPO)
    with tempfile.TemporaryDirectory(prefix="mathcards-class-") as tmp_name, \
            contextlib.ExitStack() as stack:
        tmp = Path(tmp_name)
        browser = None
        if args.browser:
            from playwright.sync_api import sync_playwright

            browser = launch_chromium(stack.enter_context(sync_playwright()))
        rows, notes = unwarmed(args, tmp, browser)
        report_unwarmed(args, rows)
        if args.warmed:
            warm_rows, warm_notes = warmed(args, tmp, browser)
            print(HEADER)
            for name, r in warm_rows:
                print(_row(name, r))
            print()
            notes += warm_notes
        if browser is not None:
            browser.close()
    failed = sum(r["failed"] for *_, r in rows)
    notes.append(f"Failed pages in all bursts: {failed:.0f} (target 0).")
    for note in notes:
        print(f"- {note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
