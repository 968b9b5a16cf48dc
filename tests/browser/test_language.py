"""A class link's language in a real browser (issue 41): ``?lang=es`` on a play page draws
the table's words (its panels, the hand, the buttons, the board), the cards' spoken names
and the moves' sentences in Spanish.

(The other pages' words are marked next; the pseudo-locale walk of every page comes with
them.)
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

import pytest

from tests.browser.test_game_pages import (
    PLAYABLE,
    open_table,
    page_url,
    render_number,
    wait_settled,
    wait_visible,
)

pytestmark = pytest.mark.browser

SPANISH_CARD = re.compile(
    r"^(as|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|jota|reina|rey) de "
    r"(corazones|diamantes|picas|tréboles)$")


def test_a_class_link_with_lang_es_plays_in_spanish(voila_server, page):
    open_table(page, page_url(voila_server, "suns_to_moons", student="lang_es") + "&lang=es")
    wait_settled(page)
    banner = page.locator(".mc-turn").first.inner_text()
    assert banner in ("Tu turno", "Jugador 2 (bot) está jugando…"), banner
    names = page.locator(".mc-hand .mc-cardbtn").evaluate_all(
        "bs => bs.map(b => b.getAttribute('aria-label') || b.title || '')")
    spoken = [n for n in names if SPANISH_CARD.search(n.split(":")[0].strip())]
    assert spoken, names  # the cards' names, as a screen reader says them
    # a move (a card, then its sign): the latest move is said in Spanish
    for _ in range(4):
        wait_settled(page)
        if "juega" in (page.locator(".mc-latest").all_inner_texts() or [""])[0]:
            break
        rendered = render_number(page)
        page.locator(PLAYABLE).first.click()
        wait_settled(page, rendered)
    latest = page.locator(".mc-latest").first.inner_text()
    assert " juega " in latest and " plays " not in latest, latest
    # the table's own words: its panels' titles, the hand, the buttons, the board
    titles = page.locator(".mc-zone-title").all_inner_texts()
    assert "Qué hizo la última jugada" in titles and "Jugadas hasta ahora" in titles, titles
    assert any(t.startswith("Tu mano (") for t in titles), titles
    assert any(t.startswith("Meta ") for t in titles), titles
    assert page.locator("button", has_text="Nueva partida").count()
    shown = page.locator(".mc-main").first.inner_text()
    for english in ("Your hand", "New game", "What the last move did", "Moves so far",
                    "Goal ", "deck value", "to play. Make the deck"):
        assert english not in shown, english


def test_the_answer_box_and_its_number_pad_speak_spanish(voila_server, page):
    """The answer box is an anywidget whose words were written in its script: in Spanish
    its label, its Check button, its pad's name and keys' names came out English."""
    url = page_url(voila_server, "suns_to_moons", student="lang_box").replace(
        "level=show", "level=count") + "&lang=es"
    open_table(page, url)
    asked = page.locator(".mc-ask:not(.mc-hide)")
    # a card, then a sign the rules take (the bot's moves before decide the deck, so a card
    # whose two signs both leave ±10 is taken back with "Atrás" and the next one tried)
    for c in range(page.locator(".mc-hand .mc-cardbtn:enabled").count()):
        wait_settled(page)
        rendered = render_number(page)
        page.locator(".mc-hand .mc-cardbtn:enabled").nth(c).click()
        wait_settled(page, rendered)
        signs = page.locator(".mc-choices .mc-choice:enabled")
        for i in range(signs.count()):
            if signs.nth(i).inner_text().strip()[:1] not in "+−":
                continue
            rendered = render_number(page)
            signs.nth(i).click()
            wait_settled(page, rendered)
            if asked.count():
                break
        if asked.count():
            break
        rendered = render_number(page)
        page.locator(".mc-choices .mc-choice", has_text="Atrás").first.click()
        wait_settled(page, rendered)
    assert asked.count(), "no card's sign was taken"
    box = page.locator(".mc-ask:not(.mc-hide) .mc-answer")
    box.locator("input").wait_for(timeout=60_000)
    assert box.locator("label").inner_text() == "Respuesta:"
    assert box.locator("button.mc-check").inner_text() == "Comprobar"
    pad = page.locator(".mc-ask:not(.mc-hide) .mc-pad")
    assert pad.get_attribute("aria-label") == "teclado de números"
    assert pad.locator('button[data-key="⌫"]').get_attribute("aria-label") == \
        "borra la última cifra"
    assert pad.locator('button[data-key="OK"]').inner_text() == "✓ Vale"


def _page_in(browser, locale: str):
    """A fresh browser (its own cookies) whose language is ``locale`` (Chromium sends it
    as Accept-Language); 1366x768."""
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale=locale)
    page = context.new_page()
    page.set_default_timeout(60_000)
    return context, page


def _close(context, page) -> None:
    page.close(run_before_unload=True)  # Voilà's unload handler shuts its kernel down
    context.close()


def _table_words(page) -> str:
    wait_settled(page)
    return page.locator(".mc-main").first.inner_text()


def test_a_spanish_browser_gets_spanish_pages_without_lang(voila_server, browser):
    """No ?lang: the browser's own language (its Accept-Language) chooses the page's."""
    context, page = _page_in(browser, "es-ES")
    try:
        open_table(page, page_url(voila_server, "sums", student="accept_es"))
        shown = _table_words(page)
        assert page.locator("button", has_text="Nueva partida").count(), shown
        assert "Your hand" not in shown and "New game" not in shown, shown
    finally:
        _close(context, page)



def test_the_landing_pages_link_each_other_and_the_spanish_one_greets_in_spanish(
        voila_server, page):
    """The English landing page's "Español" opens lessons/es/index.ipynb in a real browser
    (Voilà serves the folder); the page says it is Spanish (``<html lang="es">``), its name
    picker and greeting are Spanish, the greeting's practice link reaches the Spanish
    practice page beside it, and "English" leads back, name kept."""
    from tests.browser.conftest import wait_for_rendered
    from tests.browser.test_lessons import assert_clean

    page.goto(voila_server.page("index.ipynb"))
    wait_for_rendered(page)
    page.locator("a[hreflang='es']:not(.mc-lang a)", has_text="Español").click()
    page.wait_for_url(re.compile(r".*/voila/render/es/index\.ipynb\?lang=es$"))
    wait_for_rendered(page)
    page.locator(".mc-name-picker", has_text="¿Quién eres?").wait_for()
    assert page.evaluate("document.documentElement.lang") == "es"  # a screen reader's voice
    page.locator(".mc-name-picker input[type='text']").fill("Ana")
    page.get_by_role("button", name="Empezar").click()
    page.locator("p.mc-hello", has_text="Juegas como Ana").wait_for()
    practice = page.locator("a.mc-practice", has_text="Practica: series de ejercicios")
    assert practice.get_attribute("href").startswith("practice.ipynb?")  # lessons/es/'s
    learn = page.locator("a.mc-button", has_text="Aprender").first
    page.wait_for_function("a => a.getAttribute('href').endsWith('student=Ana')",
                           arg=learn.element_handle())
    assert learn.get_attribute("href").startswith("suns_to_moons.ipynb?lang=es")
    page.locator("a[hreflang='en']:not(.mc-lang a)", has_text="English").click()
    page.wait_for_url(re.compile(r".*/voila/render/index\.ipynb\?lang=en&student=Ana$"))
    wait_for_rendered(page)
    page.locator("p.mc-hello", has_text="Playing as Ana").wait_for()
    assert page.evaluate("document.documentElement.lang") == "en"
    assert_clean(page, voila_server)


def test_the_switch_chooses_spanish_and_the_next_page_remembers_it(voila_server, browser):
    """An English browser: the landing page's switch says "Español"; choosing it reloads
    the page with ?lang=es, and a play page opened afterwards without ?lang is Spanish."""
    context, page = _page_in(browser, "en-US")
    try:
        # a ?lang= without a catalog is passed over, and nothing of it reaches the page
        page.goto(voila_server.page("index.ipynb") + "?lang=%3Cb%3Ezz%3C%2Fb%3E",
                  timeout=120_000)
        switch = page.locator("nav.mc-lang")
        assert switch.locator("a").all_inner_texts() == ["English", "Español"]
        assert switch.locator("a[aria-current]").inner_text() == "English"
        assert switch.get_attribute("aria-label") == "Language"
        assert page.evaluate("document.documentElement.lang") == "en"
        assert page.locator("#rendered_cells b", has_text="zz").count() == 0
        with page.expect_navigation():
            switch.locator("a", has_text="Español").click()
        assert "lang=es" in page.url and "zz" not in page.url, page.url
        page.locator("nav.mc-lang a[aria-current]", has_text="Español").wait_for()
        assert switch.get_attribute("aria-label") == "Idioma"
        assert page.evaluate("document.documentElement.lang") == "es"
        open_table(page, page_url(voila_server, "sums", student="switch_es"))
        assert "lang=" not in page.url
        shown = _table_words(page)
        assert page.locator("button", has_text="Nueva partida").count(), shown
        assert "New game" not in shown, shown
    finally:
        _close(context, page)


# The switch and the notebook's cells: where the switch lies (its top, in the page's
# column, below every cell's bottom) and what the keyboard finds there.
FOOT = """() => {
    const nav = document.querySelector('nav.mc-lang');
    const cells = [...document.querySelectorAll('#rendered_cells [cell-index]')];
    return {top: nav.getBoundingClientRect().top,
            lowest: Math.max(...cells.map(c => c.getBoundingClientRect().bottom)),
            cells: cells.length,
            last: nav.parentElement.matches('#rendered_cells > div')
                  && nav === nav.parentElement.lastElementChild};
}"""
FOCUSED = """() => {
    const e = document.activeElement;
    if (!e || e === document.body) return null;
    const s = getComputedStyle(e);
    return {text: (e.innerText || e.getAttribute('aria-label') || e.tagName).trim(),
            inSwitch: !!e.closest('nav.mc-lang'), start: e.id === 'mc-walk-start',
            ring: [s.outlineStyle, s.outlineWidth, s.outlineColor, s.outlineOffset]};
}"""


def test_the_switch_is_at_the_foot_and_the_keyboard_reaches_it(voila_server, browser):
    """On a play page the switch comes after the whole table (it never pushes the hand
    down the first screen); Tab reaches it after the table's controls, with the same focus
    ring as they show; and Enter on "Español" opens the same game's page in Spanish with
    the address's other keys kept (deal, student, level, delay)."""
    context, page = _page_in(browser, "en-US")
    try:
        url = page_url(voila_server, "sums", student="foot_ana")
        open_table(page, url)
        wait_settled(page)
        foot = page.evaluate(FOOT)
        assert foot["cells"] and foot["last"], foot
        assert foot["top"] >= foot["lowest"] - 0.5, foot
        page.evaluate("""() => { const top = document.createElement('div');
            top.id = 'mc-walk-start'; top.tabIndex = -1; document.body.prepend(top);
            top.focus(); }""")  # Tab from the top of the page (Tab never stops there)
        walked = []
        for _ in range(150):
            page.keyboard.press("Tab")
            focused = page.evaluate(FOCUSED)
            if focused is None or focused["inSwitch"] or focused["start"]:
                break
            walked.append(focused)
        assert focused is not None and focused["inSwitch"], [w["text"] for w in walked]
        assert focused["text"] == "English", focused
        table_rings = {tuple(w["ring"]) for w in walked}
        assert len(table_rings) == 1 and walked, table_rings  # one ring on the whole page
        assert tuple(focused["ring"]) in table_rings, (focused, table_rings)
        style, width, _colour, _offset = focused["ring"]
        assert style == "solid" and float(width.removesuffix("px")) >= 2, focused
        page.keyboard.press("Tab")
        assert page.evaluate(FOCUSED)["text"] == "Español"
        page.evaluate("() => document.querySelector('#mc-walk-start').remove()")
        with page.expect_navigation():
            page.keyboard.press("Enter")
        kept = dict(parse_qsl(urlsplit(url).query), lang="es")
        assert dict(parse_qsl(urlsplit(page.url).query)) == kept, page.url
        # the page's Spanish copy (lessons/es/play_sums.ipynb), not the English notebook
        assert urlsplit(page.url).path.endswith("/voila/render/es/play_sums.ipynb"), page.url
        page.locator("nav.mc-lang a[aria-current]", has_text="Español").wait_for()
        wait_visible(page, f"{PLAYABLE}, .mathcards button.mc-resume")
        assert page.locator("button", has_text="Nueva partida").count() or \
            page.locator("button", has_text="Empezar una partida nueva").count()
        assert page.locator("h1", has_text="Jugar a Sums").count()  # its Markdown too
        with page.expect_navigation():  # and back: the English notebook
            page.locator("nav.mc-lang a[hreflang='en']").click()
        assert urlsplit(page.url).path.endswith("/voila/render/play_sums.ipynb"), page.url
        page.locator("h1", has_text="Play Sums").wait_for()
    finally:
        _close(context, page)

