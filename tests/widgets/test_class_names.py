"""A class and its names on the pages (issue 28, item 2), without a browser: the landing page
shows a class's names and greets the name picked (its links carry it); a page without a name
asks for one and files nothing under the guest; one rule of names on every entry point."""

from __future__ import annotations

import re
from html import escape as html_escape
from html import unescape

import pytest

import mathcards.widgets as pages
from mathcards.classes import CODE_LENGTH, ClassStore
from mathcards.exercises import ProgressStore
from mathcards.names import TAKEN
from mathcards.students import StudentNameError, clean_name
from mathcards.widgets.classes import landing
from mathcards.widgets.exercises import ExerciseSetView, class_link, practice_page
from mathcards.widgets.table import GameTable
from tests.widgets.test_students import WARM_UP

ANA_BROWSER, BO_BROWSER = "a" * 32, "b" * 32  # two browsers' tokens (mathcards.visitors)


@pytest.fixture
def browser(monkeypatch):
    """The browser at the page (a Voilà page's token): names are claimed for it."""
    at = {"token": ANA_BROWSER}
    monkeypatch.setattr(pages, "page_browser", lambda: at["token"])
    return at


@pytest.fixture
def sets(tmp_path):
    folder = tmp_path / "sets"
    folder.mkdir()
    (folder / "warm_up.yaml").write_text(WARM_UP, encoding="utf-8")
    return folder


def make_class(cid: str, names: str, codes: bool = False):
    with ClassStore() as store:
        return store.save(cid, names, codes=codes)


def hrefs(html: str) -> list[str]:
    return [unescape(h) for h in re.findall(r'href="([^"]+)"', html)]


def test_the_landing_page_of_a_class_shows_its_names_and_a_pick_carries_it(browser):
    make_class("7b", "Maya\nAna")
    page = landing(query="class=7b")
    assert [b.description for b in page.picker.w_names] == ["Maya", "Ana"]
    assert page.student == "" and "data-mc-student" not in page.w_hello.value
    page.picker.w_names[1].click()
    assert page.student == "Ana"
    hello = page.w_hello.value
    assert 'data-mc-student="Ana"' in hello and 'data-mc-class="7b"' in hello
    assert "practice.ipynb?class=7b&student=Ana" in hrefs(hello)  # the practice page too
    assert "index.ipynb?class=7b" in hrefs(hello)  # "not you?": the class's names again
    # the name is now this browser's: another browser picking it is told so
    browser["token"] = BO_BROWSER
    other = landing(query="class=7b")
    other.picker.w_names[1].click()
    assert other.student == "" and unescape(TAKEN.format(name="Ana")) in unescape(
        other.picker.w_line.value)


def _state_bytes(widget) -> int:
    """The bytes of every widget state a browser loads to draw ``widget``."""
    import json

    import ipywidgets as W

    seen: dict[str, int] = {}

    def walk(w) -> None:
        if not isinstance(w, W.Widget) or w.model_id in seen:
            return
        state = w.get_state()
        seen[w.model_id] = len(json.dumps(state, default=str).encode())
        for value in vars(w).get("_trait_values", {}).values():
            for item in (value if isinstance(value, (list, tuple)) else (value,)):
                walk(item)

    walk(widget)
    return sum(seen.values())


def test_the_landing_page_sends_its_own_style_rules_not_the_tables_sheet(browser):
    """Issue 36 item 12: the landing page sent the tables' whole style sheet (about 24 KB of
    card rules) with its name picker, more than all its widgets' own states (about 13 KB);
    its own rules are about 1 KB."""
    make_class("7b", "Maya\nAna")
    for query in ("", "class=7b"):
        page = landing(query=query)
        assert _state_bytes(page) < 20_000, query
        css = page.children[0].value
        assert len(css) < 3_000 and "mc-cardbtn" not in css and ":focus-visible" in css
    page.picker.w_names[0].click()  # greeted: the Practice link is styled as a button
    assert "a.mc-practice" in page.children[0].value and "mc-practice" in page.w_hello.value


def test_a_class_with_codes_asks_for_the_code(browser):
    made = make_class("7b", "Maya\nAna", codes=True)
    page = landing(query="class=7b")
    assert page.picker.w_names == [] and "code" in page.picker.w_text.description.lower()
    page.picker.w_text.value = "!!!"
    page.picker.w_go.click()
    assert page.student == "" and "not a code of this class" in page.picker.w_line.value
    page.picker.w_text.value = made.members[0].code.lower()
    page.picker.w_go.click()
    assert page.student == "Maya" and 'data-mc-student="Maya"' in page.w_hello.value
    # a teacher's per-student link carries the code: the page starts for that student
    browser["token"] = BO_BROWSER
    assert landing(query=f"class=7b&code={made.members[1].code}").student == "Ana"


def test_a_link_back_with_the_name_is_checked_again(browser):
    make_class("7b", "Ana")
    assert landing(query="class=7b&student=ana").student == "ana"
    refused = landing(query="class=7b&student=Maya!")
    assert refused.student == ""
    with pytest.raises(StudentNameError) as rule:
        clean_name("Maya!")
    assert unescape(str(rule.value)) in unescape(refused.picker.w_line.value)
    nowhere = landing(query="class=9z")
    assert "there is no class '9z'" in unescape(nowhere.picker.w_line.value)


def test_a_play_page_without_a_name_asks_for_one_then_starts_for_it(browser, data_dir):
    make_class("7b", "Ana\nBo")
    page = pages.play("sums", query="class=7b", ask_name=True, bot_delay=0)
    assert not isinstance(page, GameTable)
    assert [b.description for b in page.picker.w_names] == ["Ana", "Bo"]
    assert not list(data_dir.rglob("*guest*"))  # nothing kept under the guest
    page.picker.w_names[1].click()
    (table,) = page.children
    assert isinstance(table, GameTable) and table.slot == "bo" and "Playing as Bo" in table.who


def test_a_play_page_with_a_name_it_cannot_use_asks_with_the_reason(browser):
    page = pages.play("sums", query="student=Maya!", ask_name=True, bot_delay=0)
    assert "cannot be used" in unescape(page.picker.w_line.value)
    assert not page.picker.choose("Maya!")  # typed again: the same words
    assert page.picker.choose("Maya")
    assert page.children[0].slot == "maya"


def test_the_practice_page_without_a_name_asks_and_files_nothing_under_guest(browser, sets,
                                                                             tmp_path):
    store = ProgressStore(tmp_path / "p.sqlite3")
    page = practice_page(str(sets), query="set=warm_up", store=store, ask_name=True)
    assert not isinstance(page, ExerciseSetView)
    assert page.picker.w_text.description == "Your name:"  # no class: a typed name
    assert not page.picker.submit("Maya!")
    assert store.count() == 0
    assert page.picker.submit("Maya")
    (view,) = page.children
    assert isinstance(view, ExerciseSetView)
    view.submit("-3H")
    assert [a.student for a in store.attempts()] == ["maya"]
    store.close()


def test_an_explicit_guest_is_the_guest(browser, sets, tmp_path):
    store = ProgressStore(tmp_path / "p.sqlite3")
    view = practice_page(str(sets), query="set=warm_up&student=guest", store=store,
                         ask_name=True)
    assert isinstance(view, ExerciseSetView)
    store.close()


def test_class_links_are_whole_and_carry_the_class(sets, monkeypatch):
    make_class("7b", "Ana\nBo")
    link = class_link("set:warm_up", folder=sets, cls="7B")
    assert link == "practice.ipynb?set=warm_up&class=7b"
    assert class_link("set:warm_up", folder=sets, cls="7b", student="Ana").endswith(
        "&class=7b&student=Ana")
    from mathcards.widgets.exercises import class_link_builder

    # on a Voilà page the kernel knows the address the teacher reached it by
    monkeypatch.setattr(pages, "_VISITOR_QUERY", "key=k")
    monkeypatch.setenv("QUERY_STRING", "key=k")  # what Voilà gives the page's kernel
    monkeypatch.setenv("SERVER_NAME", "school.example")
    monkeypatch.setenv("SERVER_PORT", "8866")
    monkeypatch.setenv("SCRIPT_NAME", "/voila/render/classes.ipynb")
    builder = class_link_builder(sets)
    builder.w_page.value = "set:warm_up"
    builder.w_class.value = "7b"
    builder.w_each.value = True
    builder.make()
    shown = hrefs(builder.w_out.value)
    base = "http://school.example:8866/voila/render/"
    assert base + "practice.ipynb?set=warm_up&class=7b" in shown
    assert base + "index.ipynb?class=7b" in shown  # the class's landing page
    assert base + "practice.ipynb?set=warm_up&class=7b&student=Bo" in shown
    assert "adds" not in builder.w_out.value  # no "each student adds &student=..."


LINK_ENGLISH = re.compile(r"\b(link|class|page|practice|play|players|short|game|deal|code|"
                          r"help|fix|students?|each|make|empty|new|the|with|every|their|"
                          r"name|picks?|opens?|list|first|count|hints|show)\b", re.I)


def _link_builder_words(sets) -> list[str]:
    """What the teacher reads in *A link for the class*: its labels, choices, placeholder,
    and the link made without a class, then with one (its names left out)."""
    from mathcards.widgets.exercises import class_link_builder

    builder = class_link_builder(sets)
    said = [label for label, _key in builder.w_page.options]
    said += [label for label, _key in builder.w_level.options]
    said += [w.description for w in (builder.w_page, builder.w_players, builder.w_short,
                                     builder.w_deal, builder.w_level, builder.w_fixed,
                                     builder.w_class, builder.w_each)]
    said += [builder.w_deal.placeholder, builder.w_class.options[0][0],
             builder.children[0].value, builder.children[-2].description]
    builder.w_page.value = "play:suns_to_moons"
    said.append(builder.w_short.description)
    builder.w_page.value = "set:warm_up"
    builder.make()
    said.append(builder.w_out.value)
    builder.w_class.value = "7b"
    builder.make()
    said.append(builder.w_out.value)
    plain = [re.sub(r"<[^>]+>|https?://\S+|\S+\.ipynb\S*|\b7b\b|warm up|Warm-up|Suns to Moons|Sums|"
                    r"Dice Stacks|Shoot the Moon|Moons and Planets", " ", unescape(text))
             for text in said]
    return [" ".join(text.split()) for text in plain]


def test_the_link_for_the_class_reads_in_spanish_and_in_the_pseudo_locale(sets):
    """The walk of every page (branch h41w, tests/browser/test_walk_languages.py) found *A
    link for the class* in English on the classes and results pages."""
    from mathcards import i18n

    make_class("7b", "Ana\nBo")
    english = _link_builder_words(sets)
    with i18n.using("es"):
        spanish = _link_builder_words(sets)
    with i18n.using("qps"):
        pseudo = _link_builder_words(sets)
    assert all(LINK_ENGLISH.search(en) for en in english[:3]), english  # it can fail
    assert not [es for es in spanish if LINK_ENGLISH.search(es)], spanish
    assert not [ps for ps in pseudo if re.search(r"\b[A-Za-z]{2,}\b", ps)], pseudo
    assert "Crear el enlace" in spanish and "Make the link" in english


def test_the_teachers_classes_panel_saves_a_class_and_refuses_a_bad_name(monkeypatch):
    from mathcards.widgets.classes import ClassesPanel

    panel = ClassesPanel()
    assert not panel.save("7b", "Ana\nMaya!")
    assert "cannot be used" in unescape(panel.w_line.value)
    assert panel.save("7b", "Ana\nMaya", codes=True)
    listed = panel.w_list.value
    assert "Class 7b" in listed and "index.ipynb?class=7b" in listed
    codes = re.findall(rf"<code>([A-Z0-9]{{{CODE_LENGTH}}})</code>", listed)
    assert len(codes) == 2
    panel.w_each.value = True
    assert "index.ipynb?class=7b&amp;code=" in panel.w_list.value



def test_a_class_with_codes_has_code_cards_to_print(monkeypatch):
    """Issue 38 item 4: the codes were only a table cell on the page; now one page of
    cards to print, each student's name and code in large type and where to type it."""
    import base64

    from mathcards.widgets.classes import ClassesPanel

    panel = ClassesPanel()
    assert panel.save("7b", "Ana\nO'Neil\nMaya", codes=True)
    assert panel.save("club", "Ana\nBo")  # no codes: nothing to print
    sections = panel.w_list.value.split('<section class="mc-class"')[1:]
    coded = next(s for s in sections if 'data-class="7b"' in s)
    plain = next(s for s in sections if 'data-class="club"' in s)
    assert "Code cards to print" not in plain
    link = re.search(r'download="codes-7b.html" href="data:text/html;charset=utf-8;base64,'
                     r'([A-Za-z0-9+/=]+)"', coded)
    assert link, coded
    page = base64.b64decode(link.group(1)).decode("utf-8")
    with ClassStore() as store:
        members = store.get("7b").members
    for member in members:
        shown = html_escape(member.name)
        assert f'<p class="name">{shown}</p><p class="code">{member.code}</p>' in page
    assert page.count('<div class="card">') == 3
    assert "O&#x27;Neil" in page and "O'Neil" not in page  # escaped
    assert "index.ipynb?class=7b" in page  # where to type the code
    assert "font-size:28pt" in page and "@page{size:A4" in page


def test_the_teacher_makes_tournament_rooms_on_the_page(data_dir):
    """Rooms for a tournament without a terminal: codes and whole links on the classes page,
    the rooms in the server's rooms file with no host (the first student starts); a game's
    wrong number of players is one line and no room."""
    from mathcards.rooms import RoomStore
    from mathcards.widgets.classes import TournamentPanel

    panel = TournamentPanel()
    assert panel.w_game.value == "sums"  # shown first (GameSpec.tournament_default)
    panel.w_game.value, panel.w_players.value, panel.w_count.value = "dice_stacks", 3, 4
    codes = panel.make()
    assert len(codes) == 4 and "4 rooms made for 3 players each" in panel.w_out.value
    store = RoomStore(data_dir / "rooms.sqlite3")
    for code in codes:
        assert f"play_dice_stacks.ipynb?room={code}" in panel.w_out.value
        room = store.room(code)
        assert room.host is None and room.open_seats == 3 and room.replace_after == 120
    # a class saved on the same page appears in the rooms' class list without a reload
    from mathcards.widgets.classes import ClassesPanel

    assert [cid for _label, cid in panel.w_class.options] == [""]
    assert ClassesPanel().save("7b", "Ana\nBo")
    assert [cid for _label, cid in panel.w_class.options] == ["", "7b"]
    assert panel.w_class.value == ""  # the teacher's choice is kept (no class)
    panel.w_game.value, panel.w_count.value, panel.w_class.value = "sums", 1, "7b"
    (code,) = panel.make()
    assert f"play_sums.ipynb?room={code}&amp;class=7b" in panel.w_out.value
    panel.w_game.value, panel.w_players.value = "moons_and_planets", 8  # 2-5 players
    assert panel.make() == []
    line = unescape(panel.w_out.value)
    assert "The rooms were not made:" in line and "Traceback" not in line

# --- one rule of names on every entry point ------------------------------------------------
def _landing(name: str) -> tuple[str, str]:
    page = landing(query="")
    page.picker.submit(name)
    return page.student, unescape(page.picker.w_line.value)


def _play(name: str) -> tuple[str, str]:
    page = pages.play("sums", query="", ask_name=True, bot_delay=0)
    page.picker.submit(name)
    return page.student, unescape(page.picker.w_line.value)


def _practice(name: str) -> tuple[str, str]:
    page = practice_page("nowhere", query="", ask_name=True)
    page.picker.submit(name)
    return page.student, unescape(page.picker.w_line.value)


def _slot(name: str) -> tuple[str, str]:
    _where, who, problem = pages.student_slot(name)
    return (who.removeprefix("Playing as ") if not problem else ""), problem


def _class_list(name: str) -> tuple[str, str]:
    from mathcards.errors import MathCardsError

    try:
        with ClassStore() as store:
            return store.save("7b", name).names[0], ""
    except MathCardsError as exc:
        return "", str(exc)


ENTRY_POINTS = {"landing page": _landing, "play page": _play, "practice page": _practice,
                "play page address": _slot, "class list": _class_list}


@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize("name", ["Maya!", "ａｎａ", "", "a" * 200, "<b>x</b>", "Zoë",
                                  "\u0430na"])
def test_one_rule_of_names_everywhere(browser, entry, name):
    got, problem = ENTRY_POINTS[entry](name)
    try:
        expected = clean_name(name)
    except StudentNameError as exc:
        if entry == "play page address" and not name:
            assert got.startswith("guest (a saved game every visitor shares)") and not problem
            return  # an address without a name: that page asks for one (tests above)
        if entry == "class list" and not name:
            assert got == "" and "no names" in problem
            return
        assert got == "" and str(exc) in problem, (entry, problem)
        return
    assert got == expected and problem == "", (entry, problem)


def test_on_a_hub_the_landing_page_greets_the_login_and_carries_no_name(monkeypatch):
    monkeypatch.setenv("JUPYTERHUB_USER", "ana")
    page = landing(query="class=7b&student=bo")
    assert page.student == "ana" and "data-mc-student" not in page.w_hello.value
    assert hrefs(page.w_hello.value) == ["practice.ipynb"]


def test_in_a_class_with_codes_a_name_in_the_address_is_not_enough(browser):
    made = make_class("7b", "Maya\nAna", codes=True)
    page = landing(query="class=7b&student=Maya")
    assert page.student == "" and "type your code" in unescape(page.picker.w_line.value)
    assert pages.play("sums", query="student=Maya", ask_name=True, bot_delay=0).student == ""
    page.picker.submit(made.members[0].code)
    assert page.student == "Maya"
    table = pages.play("sums", query="student=Maya&class=7b", ask_name=True, bot_delay=0)
    assert isinstance(table, GameTable) and table.slot == "maya"


# --- class codes are not guessed (issue 36 item 3) -----------------------------------------
def _claimed() -> list[str]:
    from mathcards.names import NameClaims

    claims = NameClaims()
    try:
        return [c.name for c in claims.claims()]
    finally:
        claims.close()


def _guesses(made, count: int) -> list[str]:
    """``count`` codes of the right shape that are no member's code."""
    from mathcards.classes import CODE_LETTERS

    taken = {m.code for m in made.members}
    out = []
    for i in range(count * 2):
        code = "".join(CODE_LETTERS[(i * 7 + k * 5 + i // 24) % len(CODE_LETTERS)]
                       for k in range(CODE_LENGTH))
        if code not in taken and code not in out:
            out.append(code)
    return out[:count]


def test_codes_typed_at_the_name_picker_are_limited_like_room_codes(browser):
    """The name picker's Start as a page's websocket drives it (the code box set, Start
    clicked), a hundred times: after WRONG_CODES wrong codes the page says to wait, and
    then even a right code claims nothing (the wait is told before the code is looked
    at). Another browser with its own code still gets in."""
    from mathcards.rooms import WRONG_CODES

    made = make_class("7b", "\n".join(f"s{i}" for i in range(30)), codes=True)
    page = landing(query="class=7b")
    lines = []
    for guess in _guesses(made, 100):
        page.picker.w_text.value = guess
        page.picker.w_go.click()
        lines.append(unescape(page.picker.w_line.value))
    assert all("not a code of this class" in line for line in lines[:WRONG_CODES])
    assert all("too many wrong codes: wait" in line for line in lines[WRONG_CODES:])
    page.picker.w_text.value = made.members[0].code  # right, but too late
    page.picker.w_go.click()
    assert page.student == "" and "too many wrong codes: wait" in unescape(
        page.picker.w_line.value)
    assert _claimed() == []
    browser["token"] = BO_BROWSER  # a classmate, in a browser of their own
    other = landing(query="class=7b")
    other.picker.w_text.value = made.members[1].code
    other.picker.w_go.click()
    assert other.student == "s1" and _claimed() == ["s1"]


def test_the_code_of_a_name_in_use_is_refused_as_a_wrong_code_is(browser):
    """"the name 'X' is taken" told a guesser that a code was right: the code of a name
    another browser holds gets the very line of a wrong code, and counts as one."""
    from mathcards.widgets.classes import NOT_A_CODE

    made = make_class("7b", "Maya\nAna", codes=True)
    maya = made.members[0].code
    assert landing(query=f"class=7b&code={maya}").student == "Maya"  # Maya's browser
    browser["token"] = BO_BROWSER
    wrong = landing(query="class=7b")
    assert not wrong.picker.submit(_guesses(made, 1)[0])
    taken = landing(query="class=7b")
    assert not taken.picker.submit(maya)
    assert taken.student == "" and wrong.student == ""
    assert unescape(taken.picker.w_line.value) == unescape(wrong.picker.w_line.value)
    assert unescape(NOT_A_CODE) in unescape(taken.picker.w_line.value)
    assert "taken" not in taken.picker.w_line.value and "Maya" not in taken.picker.w_line.value


def test_new_classes_get_long_codes_and_the_box_does_not_say_three_letters(browser):
    """Codes long enough for the limit to matter: 24 ** CODE_LENGTH codes, a few guesses a
    minute; the code box asks for "the code from your teacher", not 3 letters."""
    from mathcards.classes import CODE_LETTERS

    assert len(CODE_LETTERS) ** CODE_LENGTH > 100_000_000
    made = make_class("7b", "Maya\nAna", codes=True)
    assert all(len(m.code) == CODE_LENGTH for m in made.members)
    page = landing(query="class=7b")
    assert "3" not in page.picker.w_text.placeholder
    spaced = made.members[1].code.lower()
    assert page.picker.submit(f" {spaced[:3]} {spaced[3:]} ")  # typed as printed, in two
    assert page.student == "Ana"


def test_a_class_made_before_long_codes_still_opens_with_its_printed_codes(browser, data_dir):
    """A teacher printed 3-character codes on an earlier release: that classes file (made
    by hand here, as the earlier release wrote it) still lets each student in by the
    printed code; a name added later gets a long code; the teacher is told how to renew
    them, and New codes for everyone gives every student a long one."""
    import sqlite3

    from mathcards.widgets.classes import ClassesPanel

    data_dir.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(data_dir / "classes.sqlite3")
    with db:
        db.executescript(
            "CREATE TABLE classes (id TEXT PRIMARY KEY, codes INTEGER NOT NULL, "
            "made REAL NOT NULL);"
            "CREATE TABLE members (class TEXT NOT NULL REFERENCES classes(id), "
            "student TEXT NOT NULL, name TEXT NOT NULL, code TEXT, pos INTEGER NOT NULL, "
            "PRIMARY KEY (class, student));"
            "INSERT INTO classes VALUES ('7b', 1, 1700000000.0);"
            "INSERT INTO members VALUES ('7b', 'maya', 'Maya', 'K7P', 0);"
            "INSERT INTO members VALUES ('7b', 'ana', 'Ana', 'XW4', 1);")
    db.close()
    assert landing(query="class=7b").picker.submit("k7p")
    browser["token"] = BO_BROWSER
    assert landing(query="class=7b&code=XW4").student == "Ana"
    panel = ClassesPanel()
    assert "3 characters, from an earlier release" in panel.w_list.value
    assert panel.save("7b", "Maya\nAna\nLee", codes=True)
    with ClassStore() as store:
        kept = {m.name: m.code for m in store.get("7b").members}
    assert kept["Maya"] == "K7P" and kept["Ana"] == "XW4" and len(kept["Lee"]) == CODE_LENGTH
    assert panel.save("7b", "Maya\nAna\nLee", codes=True, new_codes=True)
    with ClassStore() as store:
        renewed = store.get("7b")
    assert all(len(m.code) == CODE_LENGTH for m in renewed.members)
    assert "earlier release" not in panel.w_list.value
