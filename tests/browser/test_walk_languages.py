"""Issue 41's walk of the whole site in a language, in a real browser (a Voilà server as
``make play`` runs it, Debian's Chromium at 1366x768, one page at a time).

One walk per language, ``?lang=<l>`` on every address: the landing page, the five lessons
(in Spanish their own notebooks, ``lessons/es/``), the five play pages, the practice page;
at each arithmetic table (Suns to Moons, Sums, Dice Stacks) at "I count" it opens a hint,
plays a move, answers wrong once, then steps up to "Show me the sums" (the explainer's
words) and plays once more; then every teacher page with the teacher's key (a class's
names typed on *Your classes*, an assignment of it, the walker's own page). On each page it
reads what a reader sees and hears (the page's text, and the labels, placeholders,
tooltips and list options of what is shown) and fails listing, page by page, every word
left in English:

* ``qps``, the pseudo-locale: every word of plain ASCII letters is one that did not go
  through the catalog (a translated one is accented, "[Ṕļåý]"). The notebooks' own
  Markdown is not a catalog's (a language has its notebooks, ``lessons/es/``): the
  pseudo-locale walk reads what the Python on the page draws.
* ``es``: every word of the project's English (its catalog's English and its English
  notebooks' text) that its Spanish (the Spanish catalog and ``lessons/es/``) never uses.

Never English: numbers, card notation (``10H``, ``Q♠``, ``G12``, ``JK``), deal codes, links'
addresses, the names the walk typed and the pages' example names, and the games' titles
and names (the vocabulary keeps them, "jugar a Sums").
The Spanish walk saves each page's picture beside the English ones in docs/screenshots/,
named as they are with ``-es`` (``sums_1366x768-es.png``).
"""

from __future__ import annotations

import datetime as dt
import json
import re
import time
from functools import cache

import pytest

from mathcards import i18n
from tests.browser.conftest import FIRST_WIDGET, wait_for_rendered
from tests.browser.server import LESSONS
from tests.browser.test_game_pages import SCREENSHOTS, render_number, wait_settled, wait_visible
from tests.browser.test_teacher_dashboard import servers_data

pytestmark = pytest.mark.browser

ARITHMETIC = ("suns_to_moons", "sums", "dice_stacks")
TRICKS = ("shoot_the_moon", "moons_and_planets")
LESSON_PAGES = ("suns_to_moons", "sums", "dice_stacks", "shoot_the_moon", "moons_and_planets")
TITLES = ("MathCards", "Suns to Moons", "Sums", "Dice Stacks", "Shoot the Moon",
          "Moons and Planets", "suns_to_moons", "dice_stacks", "shoot_the_moon",
          "moons_and_planets")
# the names the pages show as examples (the class names box's placeholder, the guide's)
EXAMPLE_NAMES = ("Ana", "Bo", "Maya")
WORD = re.compile(r"[^\W\d_]+")
# what is never a word of a language: card notation (a standard card, a Joker, Shoot the
# Moon's cards), deal codes, room codes' letters, numbers
NOT_WORDS = re.compile(
    r"(?<![\w])(?:10|[2-9AJQK])[HDSC♠♥♦♣](?![\w])|\bJK\b|\bJOKER\b|\b[RGPB](?:1[0-2]|[1-9])\b|"
    r"\b(?:BIG|LITTLE)\b|\b(?:STM|DICE|SUMS|SHOOT|PLANETS)(?:-[0-9A-Z]+)+\b")
PLAYABLE = ".mc-hand .mc-cardbtn:enabled, .mc-choices .mc-choice:enabled"
ASKED = ".mc-ask:not(.mc-hide) .mc-ask-prompt"
BOX = ".mc-ask:not(.mc-hide) .mc-answer input"

# What a reader sees and hears on the page: its text (without the notebooks' Markdown when
# asked), and the labels, placeholders, tooltips and options of what is shown.
READ_PAGE = """(markdown) => {
    const cells = document.querySelector('#rendered_cells');
    const out = [];
    const mine = (el) => markdown || !el.closest('.jp-MarkdownCell');
    if (markdown || !cells) {
        out.push(document.body.innerText);
    } else {
        for (const cell of cells.querySelectorAll('.jp-Cell:not(.jp-MarkdownCell)')) {
            out.push(cell.innerText);
        }
        for (const el of document.body.children) {
            // Voilà's own scripts are no text; a bar such as "lost its connection" is
            if (el !== cells && !el.contains(cells) && el.checkVisibility()) out.push(el.innerText);
        }
    }
    for (const el of document.querySelectorAll('[aria-label], [placeholder], [title], [alt]')) {
        if (!mine(el) || !el.checkVisibility()) continue;
        for (const name of ['aria-label', 'placeholder', 'title', 'alt']) {
            const v = el.getAttribute(name);
            if (v && v !== 'null') out.push(v);  // ipywidgets' "no tooltip" (title="null")
        }
    }
    for (const sel of document.querySelectorAll('select')) {
        if (!mine(sel) || !sel.checkVisibility()) continue;
        for (const o of sel.options) out.push(o.text);
    }
    for (const el of document.querySelectorAll('input[type=button], input[type=submit]')) {
        if (mine(el) && el.checkVisibility() && el.value) out.push(el.value);
    }
    return out.join('\\n');
}"""


def _markdown_of(path) -> str:
    """A notebook's Markdown as a reader sees it: no link targets, code or markup."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return re.sub(r"\]\([^)]*\)|`[^`]*`|<style>.*?</style>|<[^>]*>", " ", text, flags=re.S)


@cache
def english_words() -> frozenset[str]:
    """The project's English words that its Spanish never uses: the catalog's English
    and the English notebooks' text, less every word of the Spanish catalog and of
    ``lessons/es/`` (a word both languages write, "total", "no", is not counted)."""
    from mathcards.i18n_catalogs import TEMPLATE, po_path, read

    english: list[str] = [_markdown_of(p) for p in sorted(LESSONS.glob("*.ipynb"))]
    spanish: list[str] = [_markdown_of(p) for p in sorted(LESSONS.glob("es/*.ipynb"))]
    for message in read(TEMPLATE):
        english.extend([message.id] if isinstance(message.id, str) else message.id)
    for message in read(po_path("es"), locale="es"):
        if not message.id:  # the catalog's header
            continue
        strings = message.string if isinstance(message.string, (list, tuple)) else [
            message.string]
        spanish.extend(s for s in strings if s)

    def words(texts: list[str]) -> set[str]:
        return {w.lower() for t in texts for w in WORD.findall(_plain(t)) if len(w) > 1}

    # "play": the Spanish quotes the code Play(JK, 0, 0) and the command `make play`
    return frozenset(words(english) - words(spanish) | {"play"})


def _plain(text: str, names: tuple[str, ...] = ()) -> str:
    """``text`` without what is no language's: card notation, deal codes, placeholders, the
    games' titles and ``names`` (whole words, any case)."""
    kept = NOT_WORDS.sub(" ", re.sub(r"\{[^{}]*\}|https?://\S+", " ", text))
    for name in sorted((*TITLES, *EXAMPLE_NAMES, *names), key=len, reverse=True):
        kept = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", " ", kept, flags=re.I)
    return kept


def left_in_english(text: str, lang: str, names: tuple[str, ...]) -> dict[str, str]:
    """Each word of ``text`` that is English (``es``) or not pseudo-localised (``qps``),
    with a few words around its first place."""
    kept = _plain(text, names)
    found: dict[str, str] = {}
    for m in WORD.finditer(kept):
        word = m.group()
        if len(word) < 2 or word.lower() in {w.lower() for w in found}:
            continue
        english = (word.isascii() if lang == i18n.PSEUDO
                   else word.lower() in english_words())
        if english:
            around = " ".join(kept[max(0, m.start() - 40):m.end() + 40].split())
            found[word] = around
    return found


class Walk:
    """One language's walk: the pages read so far, and what each had left in English."""

    def __init__(self, page, server, lang: str, names: tuple[str, ...]) -> None:
        self.page, self.server, self.lang, self.names = page, server, lang, names
        self.found: dict[str, dict[str, str]] = {}
        self.pages = 0

    def words(self, message: str) -> str:
        with i18n.using(self.lang):
            return i18n.gettext(message)

    def url(self, notebook: str, **query: str) -> str:
        args = "&".join(f"{k}={v}" for k, v in {**query, "lang": self.lang}.items())
        return self.server.page(notebook) + "?" + args

    def open(self, notebook: str, *, ready: str | None = FIRST_WIDGET, **query: str) -> None:
        """Open a page; wait until its cells are drawn and ``ready`` is shown."""
        self.page.goto(self.url(notebook, **query), timeout=120_000)
        wait_for_rendered(self.page)
        if ready is not None:
            wait_visible(self.page, ready, timeout=60_000)
        self.pages += 1

    def read(self, where: str, shot: str | None = None) -> None:
        """Read the page as it is now; the Spanish walk saves its picture as ``shot``."""
        text = self.page.evaluate(READ_PAGE, self.lang != i18n.PSEUDO)
        for word, around in left_in_english(text, self.lang, self.names).items():
            self.found.setdefault(where, {}).setdefault(word, around)
        if shot and self.lang == "es":
            self.page.screenshot(path=str(SCREENSHOTS / f"{shot}-es.png"))

    def report(self) -> str:
        head = (f"{len(self.found)} of {self.pages} pages keep words not in {self.lang!r} "
                "(page: the words; then each with the words around it):")
        lines = [head]
        for where, words in self.found.items():
            lines.append(f"- {where}: {', '.join(sorted(words, key=str.lower))}")
            lines.extend(f"    {w!r} in '…{around}…'" for w, around in list(words.items())[:30])
            if len(words) > 30:
                lines.append(f"    (and {len(words) - 30} more)")
        return "\n".join(lines)

    # ------------------------------------------------------------------ a table at I count
    def click(self, locator) -> None:
        rendered = render_number(self.page)
        locator.click()
        wait_settled(self.page, rendered)

    def question(self) -> str:
        asked = self.page.locator(ASKED)
        return asked.inner_text() if asked.count() and asked.is_visible() else ""

    def give(self, value: int) -> None:
        rendered = render_number(self.page)
        box = self.page.locator(BOX)
        box.click()
        box.fill(str(value).replace("-", "−"))
        box.press("Enter")
        wait_settled(self.page, rendered)

    def graded(self, game: str, *, wait_for: bool | None = None) -> list[bool]:
        """Whether each answer this walk's student gave at ``game``'s table was right, as
        the server's progress file has them (refused moves left out); with ``wait_for``,
        once one is (the file may lag the page a little)."""
        from mathcards.exercises.progress import ProgressStore

        db = self.server.state_dir / "mathcards_data" / "progress.sqlite3"
        deadline = time.monotonic() + 15
        while True:
            graded: list[bool] = []
            if db.exists():
                store = ProgressStore(db)
                try:
                    graded = [a.right for a in store.answers(student=self.names[0])
                              if a.game == game and not a.refusal]
                finally:
                    store.close()
            if wait_for is None or wait_for in graded or time.monotonic() > deadline:
                return graded
            time.sleep(0.2)

    def i_count(self, game: str, where: str) -> None:
        """At "I count": a hint, moves until a question is answered wrong once (and then
        right: Sums' captures are left to the explainer), then "Show me the sums" and one
        move more (the explainer's words)."""
        page = self.page
        back = self.words("Back")
        wrong = right = hinted = False
        tried: set[tuple[str | None, str]] = set()
        for _ in range(80):
            wait_settled(page)
            prompt = self.question()
            if prompt and game == "sums":
                # "No capture" (the last button): wrong when the card captures; then
                # "Show me the sums" below lays it and shows the capture
                self.click(page.locator(".mc-choices .mc-choice:enabled").last)
                if self.question() == prompt:
                    self.read(where, f"{game}_i_count_1366x768")  # the nudge
                    wrong = True
                    break
                right = True
                continue
            if prompt:
                answers = number_answers(game, prompt)
                if not wrong:
                    self.give(answers[0] + 11)
                    assert self.question() and False in self.graded(game, wait_for=False), \
                        f"{where}: {answers[0] + 11} taken for {prompt}"
                    self.read(where, f"{game}_i_count_1366x768")  # the nudge shown
                    wrong = True
                for value in answers:
                    if self.question() != prompt or True in self.graded(game):
                        break
                    self.give(value)
                right = True in self.graded(game, wait_for=True)
                assert right, f"{where}: none of {answers} taken for {prompt}"
                continue
            if wrong and right:
                break
            if not page.locator(PLAYABLE).count():
                page.locator(PLAYABLE).first.wait_for(timeout=60_000)
                continue
            hints = page.locator(".mc-explain button.mc-choice:enabled")
            if not hinted and hints.count() >= 2:
                self.click(hints.nth(0))
                self.click(hints.nth(1))
                self.read(where)
                hinted = True
            move = page.locator(".mc-header [data-move]").first.get_attribute("data-move")
            cards = [c for c in page.locator(".mc-hand .mc-cardbtn:enabled").all()
                     if (move, c.inner_text()) not in tried]
            choices = page.locator(".mc-choices .mc-choice:enabled").filter(has_not_text=back)
            if not cards:  # a roll, a draw, a pass
                self.click(choices.first)
                continue
            tried.add((move, cards[0].inner_text()))
            self.click(cards[0])
            if self.question():
                continue
            for i in range(choices.count()):  # a card's signs: the first the rules take
                self.click(choices.nth(i))
                if self.question() or not page.locator(".mc-near-hand").count():
                    break
            undo = page.locator(".mc-choices .mc-choice:enabled", has_text=back)
            if not self.question() and page.locator(".mc-near-hand").count() and undo.count():
                self.click(undo.first)  # both refused: another card
        assert wrong and right and hinted, f"{where}: wrong {wrong}, right {right}, hint {hinted}"
        self.read(where)
        level = page.locator(".mc-levels button").first  # "Show me the sums"
        self.click(level)
        for _ in range(6):  # a move at "Show me the sums": the explainer shows its sum
            wait_settled(page)
            if self.question() or not page.locator(PLAYABLE).count():
                break
            before = page.locator(".mc-step-text").first.inner_text()
            self.click(page.locator(PLAYABLE).filter(has_not_text=back).first)
            if page.locator(".mc-step-text").first.inner_text() != before:
                break
        self.read(where)


def number_answers(game: str, prompt: str) -> list[int]:
    """The answers a student works out from a question's numbers (whatever its language):
    the dice's total; the deck and the card's signed value (added, or for a Joker taken
    away: the second answer)."""
    plain = prompt.replace("−", "-")
    if game == "dice_stacks":
        return [sum(int(n) for n in re.findall(r"\d+", plain)[:2])]
    change = re.search(r"\(([+-]?\d+)\)", plain)
    assert change, prompt
    rest = re.sub(r"(?:10|[2-9AJQK])[♠♥♦♣]|\([+-]?\d+\)", " ", plain)
    deck = int(re.findall(r"-?\d+", rest)[0])
    value = int(change.group(1))
    return [deck + value, deck - value]


@pytest.mark.parametrize("lang", [i18n.PSEUDO, "es"])
def test_every_page_in_the_language_keeps_no_english(voila_server, browser, lang):
    from mathcards import keys
    from mathcards.assignments import GAME, AssignmentStore

    student, pupil, cid = f"lupe{lang}", f"nico{lang}", f"5{lang[0]}"
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.set_default_timeout(60_000)
    walk = Walk(page, voila_server, lang, (student, pupil, cid))
    try:
        walk.open("index.ipynb", ready=".jupyter-widgets", student=student)
        walk.read("index.ipynb", "index_1366x768")
        for game in LESSON_PAGES:
            notebook = f"es/{game}.ipynb" if lang == "es" else f"{game}.ipynb"
            walk.open(notebook)
            walk.read(notebook, f"{game}_lesson_1366x768")
        for game in (*ARITHMETIC, *TRICKS):
            where = f"play_{game}.ipynb"
            walk.open(where, student=student, delay="0", seats="human,random")
            wait_visible(page, PLAYABLE)
            walk.read(where, f"{game}_1366x768")
            if game in ARITHMETIC:
                assert page.locator(".mc-levels button.mod-active").inner_text() == \
                    walk.words("I count")
                walk.i_count(game, where)
        walk.open("practice.ipynb", ready=".jupyter-widgets", student=student)
        walk.read("practice.ipynb", "practice_1366x768")

        # the teacher's pages, with the key
        with servers_data(voila_server):
            key = keys.teacher_key()
        walk.open("teachers.ipynb", ready=None, key=key)
        walk.read("teachers.ipynb", "teachers_1366x768")
        walk.open("write_set.ipynb", key=key)
        walk.read("write_set.ipynb", "write_set_1366x768")
        walk.open("classes.ipynb", key=key)
        page.get_by_placeholder("7b").fill(cid)
        page.locator("textarea").first.fill(f"{student}\n{pupil}")
        page.get_by_role("button", name=walk.words("Save the class")).click()
        page.locator("p[role=status]", has_text=cid).first.wait_for()
        walk.read("classes.ipynb", "classes_1366x768")
        today = dt.date.today()
        with servers_data(voila_server), AssignmentStore() as store:
            aid = store.add(cid, GAME, "sums", level="count", games=1, opens=today,
                            due=today + dt.timedelta(days=7)).id
        walk.open("assignment.ipynb", key=key, id=aid)
        walk.read("assignment.ipynb", "assignment_1366x768")
        walk.open("dashboard.ipynb", key=key)
        page.locator("table.mc-skills").first.wait_for()
        walk.read("dashboard.ipynb", "dashboard_1366x768")
        walk.open("student.ipynb", key=key, who=student)
        walk.read("student.ipynb", "student_1366x768")
    finally:
        page.close(run_before_unload=True)
        context.close()
    assert walk.pages == 18  # index, 5 lessons, 5 tables, practice, 6 teacher pages
    assert not walk.found, walk.report()
