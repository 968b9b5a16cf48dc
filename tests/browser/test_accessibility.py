"""The automated accessibility audit (issue 14 item 6): axe-core on every page of the site.

Each page served from lessons/ (every notebook there, the practice page once per
exercise set, the dashboard with the teacher's key) is opened as a visitor opens
it, axe-core (``node_modules/axe-core``, pinned in package-lock.json and installed
by ``make node_modules``) is injected with Playwright and run on the whole page,
and no violation of impact "serious" or "critical" may remain. A violation is
fixed in our widgets' HTML/CSS or the page template (lessons/share/jupyter), never
by turning its rule off; ``EXCLUDED`` lists the only markup left out, each with why.
Then the page is walked with Tab: whatever the keyboard reaches shows a focus ring.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser.conftest import wait_for_rendered
from tests.browser.server import LESSONS

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
GRAVE = ("serious", "critical")
# Markup that is Voilà's or JupyterLab's own (not ours to change), left out of the audit.
EXCLUDED: list[str] = []
SETS = sorted(p.stem for p in (LESSONS / "exercises").glob("*.yaml"))


def _pages() -> list[str]:
    pages = []
    for notebook in sorted(LESSONS.glob("*.ipynb")):
        if notebook.name == "practice.ipynb":
            pages += ["practice.ipynb"] + [f"practice.ipynb?set={name}&student=guest"
                                           for name in SETS]
        elif notebook.name.startswith("play_"):  # the table, and its name prompt once
            pages.append(notebook.name + "?student=guest")
            if notebook.name == "play_sums.ipynb":
                pages.append(notebook.name)
        else:
            pages.append(notebook.name)
    return pages


def require_axe() -> None:
    """Skip (or, in CI, fail) when npm has not installed axe-core into node_modules."""
    if AXE.exists():
        return
    message = (f"{AXE} is missing: run `make node_modules` (npm ci installs axe-core as "
               "package-lock.json pins it) to run the accessibility audit")
    if os.environ.get("CI") == "true":
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


QUIET = """(ms) => new Promise(resolve => {
    let timer = setTimeout(resolve, ms);
    new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(resolve, ms); })
        .observe(document.body, {subtree: true, childList: true, attributes: true,
                                 characterData: true});
})"""
RUN_AXE = """async (exclude) => {
    const result = await axe.run({exclude: exclude.map(s => [s])},
                                 {resultTypes: ['violations']});
    return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
        count: v.nodes.length, target: v.nodes[0].target.join(' '),
        html: v.nodes[0].html.slice(0, 160)}));
}"""


FOCUS_RING = """() => {
    const e = document.activeElement;
    if (!e || e === document.body || e.id === 'mc-walk-start') return null;
    const s = getComputedStyle(e), again = e.dataset.mcWalked === '1';
    e.dataset.mcWalked = '1';
    return {again, name: (e.innerText || e.getAttribute('aria-label')
            || e.getAttribute('title') || e.tagName).trim().slice(0, 60),
            ring: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2};
}"""


def focus_walk(page, limit: int = 80) -> tuple[list[str], list[str]]:
    """Tab through the page from its top: (what was reached, what showed no focus ring)."""
    # start from the top of the page (a mark that Tab itself never stops on)
    page.evaluate("""() => { const top = document.createElement('div');
        top.id = 'mc-walk-start'; top.tabIndex = -1; document.body.prepend(top);
        top.focus(); }""")
    reached: list[str] = []
    no_ring: list[str] = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        focus = page.evaluate(FOCUS_RING)
        if focus is None or focus["again"]:
            break  # back at the top: every control was reached once
        reached.append(focus["name"])
        if not focus["ring"]:
            no_ring.append(focus["name"])
    page.evaluate("() => document.querySelector('#mc-walk-start').remove()")
    return reached, no_ring


def audit(page) -> list[dict]:
    """axe-core's serious and critical violations on the page as it is now."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(RUN_AXE, EXCLUDED)
    return [v for v in found if v["impact"] in GRAVE]


def report(page_name: str, violations: list[dict]) -> str:
    return f"{page_name}: {len(violations)} serious/critical axe violations:\n" + "\n".join(
        f"  {v['id']} ({v['impact']}, {v['count']} nodes): {v['help']}\n"
        f"    first: {v['target']}  {v['html']}" for v in violations)


def open_quiet(page, url: str) -> None:
    """Open ``url`` and wait until Voilà has drawn it and its widgets stop changing."""
    page.goto(url, timeout=120_000)
    wait_for_rendered(page, timeout=120_000)
    page.wait_for_function(
        "() => !document.querySelector('.jupyter-widgets-disconnected') && "
        "![...document.querySelectorAll('.jp-OutputArea-output')].some("
        "e => e.innerText.includes('Loading widget'))", timeout=60_000)
    page.evaluate(QUIET, 1500)


@pytest.mark.parametrize("page_name", _pages())
def test_no_serious_or_critical_axe_violation(voila_server, page, page_name):
    require_axe()
    url = voila_server.page(page_name)
    if page_name in ("dashboard.ipynb", "write_set.ipynb"):  # they need the teacher's key
        from mathcards import keys
        from tests.browser.test_teacher_dashboard import servers_data

        with servers_data(voila_server):
            url += f"?key={keys.teacher_key()}"
    open_quiet(page, url)
    violations = audit(page)
    if page_name.startswith("play_suns_to_moons.ipynb?"):  # a card picked: the sign buttons too
        card = page.locator(".mc-hand .mc-cardbtn:enabled").first
        card.click()
        page.evaluate(QUIET, 1000)
        violations += [v for v in audit(page) if v not in violations]
        # a sign chosen: the question, the answer box and its number pad (issue 25)
        signs = page.locator(".mc-choices .mc-choice:enabled:not(:has-text('Back'))")
        for i in range(signs.count()):
            signs.nth(i).click()
            page.evaluate(QUIET, 1000)
            if page.locator(".mc-ask:not(.mc-hide)").count():  # asked (not refused)
                break
        # the answer box is made with the first question: its view draws once its script
        # is imported (no change to the page meanwhile, so wait for it, not for quiet)
        page.locator(".mc-ask:not(.mc-hide) .mc-answer input").wait_for(timeout=60_000)
        page.evaluate(QUIET, 1000)
        assert page.locator(".mc-ask:not(.mc-hide) .mc-pad button").count() == 13
        violations += [v for v in audit(page) if v not in violations]
        # the audit reaches into the widgets: an unnamed button in the hand is caught
        page.evaluate("() => document.querySelector('.mc-hand').append("
                      "Object.assign(document.createElement('button'), {id: 'mc-unnamed'}))")
        assert "button-name" in {v["id"] for v in audit(page)}
        page.evaluate("() => document.querySelector('#mc-unnamed').remove()")
    assert not violations, report(page_name, violations)
    # every control the keyboard reaches shows a focus ring (CSS :focus-visible)
    reached, no_ring = focus_walk(page)
    assert reached, f"{page_name}: Tab reached nothing"
    assert not no_ring, f"{page_name}: no visible focus outline on {no_ring}"
