"""The catalogs and the choice of language (issue 41, its groundwork): the committed
catalogs are exactly what ``make translations`` makes, Spanish is complete, every plural
form compiles, translations keep their placeholders, and a page's language is the one
asked for, then remembered, then the browser's."""

from __future__ import annotations

import gettext
import random
import re
import threading

import pytest

from mathcards import i18n
from mathcards import i18n_catalogs as C
from mathcards.cards import parse_card
from tests.registered import every_game


def test_the_committed_template_holds_every_marked_string():
    template = C.extract()
    committed = C.read(C.TEMPLATE)
    key = lambda cat: sorted((m.context or "", str(m.id)) for m in cat if m.id)  # noqa: E731
    assert key(template) == key(committed), "run `make translations` and commit the catalogs"
    assert len(key(template)) >= 25


def test_every_compiled_catalog_is_its_po_compiled():
    for lang in [*C.languages(), i18n.PSEUDO]:
        path = C.po_path(lang)
        mo = path.with_suffix(".mo")
        assert mo.exists(), f"{mo} missing: run `make translations`"
        assert mo.read_bytes() == C.mo_bytes(C.read(path, None if lang == i18n.PSEUDO
                                                   else lang)), f"{mo} is stale"


def test_the_pseudo_locale_is_made_from_the_template():
    made = C.pseudo(C.read(C.TEMPLATE))
    committed = C.read(C.po_path(i18n.PSEUDO))
    assert {str(m.id): m.string for m in made if m.id} == \
        {str(m.id): m.string for m in committed if m.id}


def test_spanish_is_complete_and_keeps_every_placeholder():
    assert "es" in C.languages()
    assert C.untranslated("es") == []
    assert C.mismatched("es") == []


def test_a_missing_or_broken_translation_is_reported(tmp_path, monkeypatch):
    # a copy of the Spanish catalog with one entry emptied and one placeholder lost
    monkeypatch.setattr(C, "LOCALE_DIR", tmp_path)
    path = C.po_path("es")
    catalog = C.read(i18n.LOCALE_DIR / "es" / "LC_MESSAGES" / "mathcards.po", "es")
    catalog["ace"].string = ""
    catalog["{rank} of {suit}"].string = "{rank} de picas"
    C._write(catalog, path)
    assert C.untranslated("es") == ["ace"]
    assert C.mismatched("es") == ["{rank} of {suit}"]


@pytest.mark.parametrize("lang", ["es", "qps"])
def test_every_plural_form_compiles_and_names_a_form(lang):
    path = C.po_path(lang)
    catalog = C.read(path, None if lang == i18n.PSEUDO else lang)
    nplurals = catalog.num_plurals
    plural = gettext.c2py(catalog.plural_expr)
    for n in [*range(2001), 1_000_000, 2_000_000, 1_000_001]:
        assert 0 <= plural(n) < nplurals, (lang, n)
    for message in catalog:
        if isinstance(message.id, (list, tuple)):
            assert len(message.string) == nplurals and all(message.string), message.id


def test_pseudo_text_accents_words_and_keeps_placeholders_and_markup():
    assert C.pseudo_text("Play Sums") == "[Ṕļåý Šûɱš]"
    out = C.pseudo_text('Take <b>{card}</b> for %(n)d points &amp; more')
    assert "{card}" in out and "<b>" in out and "</b>" in out and "%(n)d" in out
    assert "&amp;" in out and "Take" not in out and "points" not in out


def test_card_names_are_said_in_the_page_language():
    seven = parse_card("7H")
    assert seven.name == "seven of hearts"
    with i18n.using("es"):
        assert seven.name == "siete de corazones"
        assert parse_card("QC").name == "reina de tréboles"
        assert parse_card("LITTLE").name == "Luna Pequeña"
        assert str(seven) == "7H" and seven.symbol == "7♥"  # card notation stays
    with i18n.using("qps"):
        assert "seven" not in seven.name and seven.name.startswith("[")
    assert seven.name == "seven of hearts"  # the block's language went with it


@pytest.mark.parametrize(("asked", "remembered", "browser", "expected"), [
    ("es", None, None, "es"),
    ("es-MX", None, None, "es"),
    ("ES_es", None, None, "es"),
    (None, "es", "en-GB,en;q=0.9", "es"),          # the student's pages remember Spanish
    ("en", "es", "es", "en"),                      # the class link's ?lang= wins
    (None, None, "fr-FR,es;q=0.8,en;q=0.5", "es"),  # the browser's first with a catalog
    (None, None, "en;q=0.2,es;q=0.9", "es"),        # by q-value, not by order
    (None, None, "es;q=0", "en"),                   # q=0: not acceptable
    (None, None, "fr", "en"),                       # no catalog: the source language
    ("klingon!", None, None, "en"),                 # not a tag: never an error
    ("<script>", "../../etc", 12, "en"),
    (None, None, None, "en"),
])
def test_the_page_language_is_asked_then_remembered_then_the_browsers(
        asked, remembered, browser, expected):
    assert i18n.choose(asked, remembered, browser) == expected


def test_the_kernel_language_holds_until_changed_and_a_block_can_differ():
    try:
        assert i18n.use("es-AR") == "es"
        assert parse_card("KS").name == "rey de picas"
        with i18n.using("en"):
            assert parse_card("KS").name == "king of spades"
        assert i18n.use("xx") == "en" and parse_card("KS").name == "king of spades"
    finally:
        i18n.use("en")


def test_each_thread_keeps_its_own_block_language():
    seen = {}

    def page(lang):
        with i18n.using(lang):
            seen[lang] = parse_card("KS").name

    threads = [threading.Thread(target=page, args=(lang,)) for lang in ("es", "en")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {"es": "rey de picas", "en": "king of spades"}
    assert i18n.language() == "en"


def test_starting_a_language_makes_a_catalog_to_translate(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(C, "LOCALE_DIR", tmp_path)
    assert C.main(["new", "fr"]) == 0
    template = C.read(C.TEMPLATE)
    assert sorted(C.untranslated("fr")) == sorted(
        m.id[0] if isinstance(m.id, tuple) else m.id for m in template if m.id)
    assert "fr/LC_MESSAGES/mathcards.po" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        C.main(["new", "fr"])  # exists already: said, not overwritten


# --- the engines' words (marked so far: Suns to Moons) --------------------------------
ENGLISH = re.compile(r"\b(the|and|plays?|deck|goal|round|wins?|cards?|points?|deals?|"
                     r"player|nobody|passe[sd]|removing|adding|subtracting|used|"
                     r"code|saved?|game|is|not|could|kept|too|short|letters?)\b", re.I)


def _playout_words(game_id: str, seed: int, names: tuple[str, ...], **settings) -> list[str]:
    """Every event of a seeded game of random bots, worded in the page's language."""
    from mathcards.bots import Bot
    from mathcards.games.registry import make_game

    game = make_game(game_id, num_players=len(names), **settings)
    state = game.new_game(seed=seed)
    bots = [Bot(game_id, "random", seed=seed * 7 + i) for i in range(len(names))]
    words = [e.describe(names) for e in state.events]
    while not state.is_over:
        state = state.apply(bots[state.current_player].choose(state))
        words += [e.describe(names) for e in state.new_events]
    return words


def _in_three(words_of, *args, **settings) -> list[tuple[str, str, str]]:
    """``words_of(*args, **settings)`` in English, Spanish and the pseudo-locale, side by
    side (more than five of them)."""
    english = words_of(*args, **settings)
    with i18n.using("es"):
        spanish = words_of(*args, **settings)
    with i18n.using("qps"):
        pseudo = words_of(*args, **settings)
    assert len(english) == len(spanish) == len(pseudo) > 5
    return list(zip(english, spanish, pseudo, strict=True))


def _in_three_languages(game_id: str, seed: int, names: tuple[str, ...], **settings):
    return _in_three(_playout_words, game_id, seed, names, **settings)


@pytest.mark.parametrize("seed", range(40))
def test_suns_to_moons_says_every_event_in_spanish_and_in_the_pseudo_locale(seed):
    names = ("Ana", "", "Zoe")  # the second seat unnamed: "Player 2"
    for en, es, ps in _in_three_languages("suns_to_moons", seed, names, target_score=2):
        _check_words(en, es, ps, ENGLISH)


def _check_words(english: str, spanish: str, pseudo: str, words: re.Pattern[str]) -> None:
    assert words.search(english), english  # the check can fail: it finds the English
    assert not words.search(spanish), (english, spanish)
    # the pseudo-locale leaves no plain English word: names, cards and numbers only
    plain = re.sub(r"Ana|Zoe|\b(?:10|[2-9AJQK])[♠♥♦♣]|JK", "", pseudo)
    assert not re.search(r"\b[A-Za-z]{2,}\b", plain), (english, pseudo)
    # the same numbers (in the order Spanish says them)
    assert sorted(re.findall(r"−?\d+", spanish)) == sorted(re.findall(r"−?\d+", english))


# Sums' words: more English words a Spanish sentence must not keep.
SUMS_ENGLISH = re.compile(ENGLISH.pattern[:-3] + r"|drew|dealt|played|took|pile|face up|"
                          r"captured?|counter(ed)?|threatens?|with|makes|your?|hand|helper|"
                          r"colour|red|black|skipped|over|scores)\b", re.I)


def _refusals_along(game_id: str, seed: int, probes_at, **settings) -> list[str]:
    """Why the game refuses each probe move (``probes_at(state)``) that is not legal, at
    every position of a seeded game of random bots."""
    from mathcards.bots import Bot
    from mathcards.games.registry import make_game

    state = make_game(game_id, num_players=2, **settings).new_game(seed=seed)
    bots = [Bot(game_id, "random", seed=seed * 7 + i) for i in range(2)]
    said: list[str] = []
    while not state.is_over:
        legal = state.legal_actions()
        said += [state.why_illegal(a) for a in probes_at(state) if a not in legal]
        state = state.apply(bots[state.current_player].choose(state))
    return said


def _refusals_in_three_languages(game_id: str, seed: int, probes_at, words: re.Pattern[str],
                                 cards: str, **settings) -> list[str]:
    """The refusals in English, Spanish (no word of ``words``) and the pseudo-locale (only
    names, cards and numbers: ``cards`` is the pattern of what it may keep); the English."""
    said = _in_three(_refusals_along, game_id, seed, probes_at, **settings)
    for en, es, ps in said:
        assert words.search(en) and not words.search(es), (en, es)
        assert not re.search(r"\b[A-Za-z]{2,}\b", re.sub(cards, "", ps)), (en, ps)
    return [en for en, _es, _ps in said]


def _sums_probes(state) -> list:
    """A few moves of every kind for the Sums player to act, most of them not legal."""
    from mathcards.cards import Card
    from mathcards.games.sums import actions as A

    p = state.actor
    hand, side = state.hands[p], state.sides[p]
    other = state.sides[1 - p]
    mine = side[0] if side else Card("S", 2)
    return [A.Draw(0), A.Draw(9), A.Play(Card("S", 1)) if Card("S", 1) not in hand
            else A.Play(Card("H", 1)), A.Capture(other[0] if other else Card("S", 2), 1 - p),
            A.Capture(mine, p), A.Counter(hand[0] if hand else Card("S", 2)),
            A.Decline(), A.TakeBack(mine), A.EndGame()]


@pytest.mark.parametrize("seed", range(12))
def test_sums_says_every_event_and_refusal_in_spanish_and_in_the_pseudo_locale(seed):
    names = ("Ana", "", "Zoe")
    for en, es, ps in _in_three_languages("sums", seed, names, variant_return=True):
        _check_words(en, es, ps, SUMS_ENGLISH)
    _refusals_in_three_languages("sums", seed, _sums_probes, SUMS_ENGLISH,
                                 r"\b(?:10|[2-9AJQK])[♠♥♦♣]|JK", variant_return=True)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_suns_to_moons_table_plays_a_whole_game_in_spanish(seed):
    import random

    from mathcards.games.registry import game_spec, resolve
    from mathcards.table import TableController
    from tests.test_table_controller import click_to_end

    with i18n.using("es"):
        ctl = TableController(resolve(game_spec("suns_to_moons").view)(), seed=seed,
                              bot_delay=0, save=False, bot_seed=seed)
        assert ctl.turn_banner() == "Tu turno"
        assert ctl.seat_names == ("Jugador 1 (tú)", "Jugador 2 (bot)")
        for text in ("", "x" * 100):
            assert not ctl.attempt(ctl.type_move, text)
            assert ctl.refused and not ENGLISH.search(ctl.message), ctl.message
        click_to_end(ctl, random.Random(seed))
        assert ctl.turn_banner() == "Fin de la partida"
        assert ctl.message.startswith("Fin de la partida: ") and "Puntos: " in ctl.message
        assert ctl.history and not [line for line in ctl.history if ENGLISH.search(line)]
        assert not ctl.attempt(ctl.click_choice, "next-round")  # nothing waits: refused
        assert not ENGLISH.search(ctl.message), ctl.message


@pytest.mark.parametrize("code", ["", "!!", "STM", "ZZZ-2P-1A", "STM-XP-1A", "STM-2P-QQQQ",
                                  "STM-2P-TS99-000NX", 12])
def test_a_wrong_deal_code_is_explained_in_spanish(code):
    from mathcards.errors import MathCardsError
    from mathcards.saves import read_deal_code

    with pytest.raises(MathCardsError) as english:
        read_deal_code(code)
    with i18n.using("es"), pytest.raises(MathCardsError) as spanish:
        read_deal_code(code)
    assert ENGLISH.search(str(english.value)), english.value
    assert not ENGLISH.search(str(spanish.value)), spanish.value


def test_a_broken_save_is_reported_in_spanish_and_kept_aside():
    from mathcards.saves import load_table, save_path

    path = save_path("suns_to_moons", "i18n-broken")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{not json", encoding="utf-8")
    with i18n.using("es"):
        saved, message = load_table("suns_to_moons", "i18n-broken")
    assert saved is None and not path.exists()  # set aside, never deleted
    assert message.startswith("Tu partida guardada no se pudo abrir (el texto de la mesa "
                              "guardada está dañado); está guardada como ")
    assert "guardada como suns_to_moons-i18n-broken.broken-" in message, message


@pytest.mark.parametrize("seed", [3, 8])
def test_i_count_asks_nudges_and_answers_in_spanish(seed):
    import random

    from tests.test_asking_table import _choose, _table

    with i18n.using("es"):
        ctl, answers, _levels = _table(seed, target=2)
        rng = random.Random(seed)
        said: list[str] = []
        for _step in range(300):
            if ctl.state.is_over:
                break
            if ctl.asking.pending is None:
                plays = [a for a in ctl.state.legal_actions() if hasattr(a, "card")]
                if not plays:
                    ctl.play(ctl.state.legal_actions()[0])
                    continue
                _choose(ctl, rng.choice(plays))
                if ctl.asking.pending is None:
                    continue
            expected = ctl.asking.pending.question.expected
            assert not ctl.attempt(ctl.answer, "siete")  # not a number: one line, nothing changes
            said.append(ctl.message)
            for _try in range(rng.choice((0, 1, 2))):  # wrong first: a nudge, then the step
                if ctl.asking.pending is not None:
                    ctl.answer(str(expected + 3))
                    said.append(ctl.asking.feedback)
            if ctl.asking.pending is not None:
                ctl.answer(str(expected))
            said.append(ctl.asking.feedback)
            if ctl.asking.waiting:
                ctl.click_choice("ok")
        assert ctl.state.is_over
    prompts = [a.prompt for a in answers]
    assert prompts and said
    assert any(p.startswith("El montón vale ") for p in prompts), prompts[:3]
    assert any(s.startswith("¡Bien! ") for s in said)
    assert any(s.startswith(("Casi", "Cerca")) for s in said)
    for text in prompts + said:
        assert not ENGLISH.search(text), text
        assert not re.search(r"\b(what|is|now|quite|not|type|number)\b", text, re.I), text


@pytest.mark.parametrize(("winners", "here", "what", "spanish"), [
    ((), (0,), "round", "Nadie ganó la ronda"),
    ((0,), (0,), "game", "¡Ganaste!"),
    ((0,), (0,), "round", "¡Ganaste la ronda!"),
    ((1,), (0,), "game", "Jugador 2 ganó la partida"),
    ((0, 1), (0,), "game", "Empate: Ana y Jugador 2 comparten la victoria"),
])
def test_a_moment_headline_in_spanish(winners, here, what, spanish):
    from mathcards.moments import _headline, _scores_line

    with i18n.using("es"):
        assert _headline(winners, ("Ana", ""), here, what)[0] == spanish
        assert _scores_line((3, -1), ("Ana", "")) == "Puntos: Ana 3 · Jugador 2 −1"


@pytest.mark.parametrize(("query", "expected"), [
    ("lang=es", {"lang": "es"}), ("lang=es-MX", {"lang": "es"}), ("lang=fr", {}),
    ("lang=<b>", {}), ("lang=" + "e" * 500, {}), ("lang=", {}),
])
def test_a_class_link_names_the_language(query, expected):
    from mathcards.widgets import query_settings

    assert {k: v for k, v in query_settings(query).items() if k == "lang"} == expected


def test_a_play_page_with_lang_es_draws_the_table_in_spanish():
    from mathcards.widgets import play

    try:
        table = play("suns_to_moons", query="lang=es&level=show&seats=human,strong&delay=0",
                     save=False, ask_name=False)
        assert i18n.language() == "es"
        assert "Tu turno" in table.w_turn.value
        assert table.ctl.seat_names == ("Jugador 1 (tú)", "Jugador 2 (bot)")
        english = play("suns_to_moons", query="lang=en&level=show&delay=0", save=False,
                       ask_name=False)
        assert "Your turn" in english.w_turn.value
    finally:
        i18n.use("en")


def visible_texts(widget) -> list[str]:
    """Every text a reader sees or hears of ``widget`` and the widgets inside it: HTML text
    and its aria-labels and titles (tags, styles and LaTeX commands left out), buttons'
    words and tooltips, the labels of choices (not their values), fields' descriptions and
    placeholders."""
    import html as H

    out: list[str] = []
    seen: set[int] = set()

    def walk(w) -> None:
        if id(w) in seen:
            return
        seen.add(id(w))
        value = getattr(w, "value", None)
        if type(w).__name__ in ("HTML", "HTMLMath", "Label") and isinstance(value, str):
            text = re.sub(r"<(style|script)\b.*?</\1>", " ", value, flags=re.S)
            out.extend(H.unescape(a) for a in re.findall(r'(?:aria-label|title)="([^"]*)"', text))
            text = re.sub(r"\\[A-Za-z]+", " ", re.sub(r"<[^>]+>", " ", text))
            out.append(H.unescape(text))
        for attr in ("description", "tooltip", "placeholder"):
            said = getattr(w, attr, None)
            if isinstance(said, str):
                out.append(said)
        out.extend(str(label) for label in getattr(w, "_options_labels", ()))
        for child in getattr(w, "children", ()):
            walk(child)

    walk(widget)
    return [t for t in out if t.strip()]


@pytest.mark.parametrize("seed", [1, 2])
def test_a_suns_to_moons_table_says_nothing_in_english_in_the_pseudo_locale(seed):
    """The play table's every visible and spoken word in the pseudo-locale, through a game of
    clicks: a plain English word left is a string not marked for translation."""
    from mathcards.widgets.table import GameTable
    from tests.widgets.helpers import click_something

    # the game's title, the rules' notation (~JOKER~), cards, deal codes
    allowed = r"Suns to Moons|\bJOKER\b|\b(?:10|[2-9AJQK])[♠♥♦♣]|\bJK\b|\b\d+[A-Z]\b|STM-[\w-]+"
    try:
        i18n.use("qps")
        table = GameTable(_stm_view(), seats=("human", "strong"), seed=seed, bot_delay=0,
                          save=False)
        rng = random.Random(seed)
        left: set[str] = set()
        for _click in range(30):
            for text in visible_texts(table):
                plain = re.sub(r"\[[^\]]*\]", " ", text)  # the pseudo-locale wraps its words
                left |= set(re.findall(r"\b[A-Za-z]{2,}\b", re.sub(allowed, " ", plain)))
            if table.state.is_over:
                break
            click_something(table, rng)
    finally:
        i18n.use("en")
    assert not left, sorted(left)


def _stm_view():
    from mathcards.widgets import make_view

    return make_view("suns_to_moons")


@pytest.mark.parametrize("seed", range(12))
def test_suns_to_moons_moments_read_in_spanish(seed):
    """Every round and game won in seeded games: the moment's title, headline and lines."""
    from mathcards.bots import Bot
    from mathcards.games.registry import make_game
    from mathcards.moments import moment_for

    game = make_game("suns_to_moons", num_players=2, target_score=2)
    state = game.new_game(seed=seed)
    bots = [Bot("suns_to_moons", "random", seed=seed + i) for i in range(2)]
    seen = 0
    with i18n.using("es"):
        while not state.is_over:
            before = state
            state = state.apply(bots[state.current_player].choose(state))
            found = moment_for(before, state, ("Ana", ""), (0,))
            if found is not None:
                seen += 1
                assert not ENGLISH.search(found.text), found.text
                assert found.title.startswith(("Ronda ", "Fin de la partida"))
    assert seen >= 2


@pytest.mark.parametrize(("game", "settings"), [("dice_stacks", {}), ("sums", {"piles": 4})])
@pytest.mark.parametrize("seed", range(4))
def test_the_game_over_moments_of_dice_stacks_and_sums_read_in_spanish(game, settings, seed):
    from mathcards.bots import Bot
    from mathcards.games.registry import make_game
    from mathcards.moments import moment_for

    state = make_game(game, num_players=2, **settings).new_game(seed=seed)
    bots = [Bot(game, "random", seed=seed + i) for i in range(2)]
    before = state
    while not state.is_over:
        before, state = state, state.apply(bots[state.current_player].choose(state))
    english = moment_for(before, state, ("Ana", ""), (0,))
    with i18n.using("es"):
        spanish = moment_for(before, state, ("Ana", ""), (0,))
    assert english is not None and spanish is not None
    assert re.search(r"\b(stacks?|cards?|captured|scores?|pile)\b", english.text)
    assert not re.search(r"\b(stacks?|cards?|captured|scores?|pile|left|face|up|and|to)\b",
                         spanish.text), spanish.text
    assert spanish.title == "Fin de la partida"
    assert re.findall(r"−?\d+", spanish.text) == re.findall(r"−?\d+", english.text)



DICE_ENGLISH = re.compile(ENGLISH.pattern[:-3] + r"|rolled|goes first|first|drew|laid|ran out|"
                          r"ended|hand|stock|over|stacks?|dice|draw(ing)?|roll|rest|whole|number|"
                          r"double|halve|Kings?|lone|makes|none|not|own)\b", re.I)


def _dice_stacks_probes(state) -> list:
    """Moves of every kind, and every stack of 1 to 3 of the first six cards in hand."""
    from itertools import combinations

    from mathcards.cards import Card
    from mathcards.games import dice_stacks as D

    hand = state.hands[state.turn][:6]
    probes = [D.Roll(), D.Draw(1), D.Draw(9), D.DrawRest(1), D.StopDrawing(),
              D.LayStack(()), D.LayStack((Card("S", 1),) * 9), D.EndTurn()]
    return probes + [D.LayStack(c) for k in (1, 2, 3) for c in combinations(hand, k)]


@pytest.mark.parametrize("seed", range(6))
def test_dice_stacks_says_every_event_and_refusal_in_spanish_and_in_the_pseudo_locale(seed):
    names = ("Ana", "", "Zoe")
    for en, es, ps in _in_three_languages("dice_stacks", seed, names):
        _check_words(en, es, ps, DICE_ENGLISH)
    english = _refusals_in_three_languages("dice_stacks", seed, _dice_stacks_probes,
                                           DICE_ENGLISH, r"\b(?:10|[2-9AJQK])[♠♥♦♣]|JK|A-Q")
    assert any("÷ 2" in en for en in english)  # the Kings' halving words are among them


# Shoot the Moon's words: a trick game's events and refusals.
MOON_ENGLISH = re.compile(r"\b(tricks?|chips?|deals?|leads?|plays|takes|wins?|round|scored|"
                          r"Moons?|Big|Little|Dummy|each|hand|colour|highest|red|green|"
                          r"purple|blue|follow|hold|played|first|only|odd|number|never|"
                          r"below|took|rocket|trumps|beats|led|any|card|may|you|nobody)\b",
                          re.I)
MOON_CARDS = r"Ana|Zoe|Bo|[▲☾★●]\d+|\bR/G/P/B\b|\b(?:BIG|LITTLE|R|G|P|B)\b"


def _moon_probes(state) -> list:
    """A card of every kind, most of them not in the hand to act or not allowed now."""
    from mathcards.cards import as_card
    from mathcards.games.shoot_the_moon import Play

    return [Play(as_card(c)) for c in ("R1", "G12", "BIG", "LITTLE", "B5", "P7")]


@pytest.mark.parametrize(("players", "settings"), [(2, {}), (3, {}), (4, {"partnerships": True})])
@pytest.mark.parametrize("seed", range(3))
def test_shoot_the_moon_says_every_event_and_refusal_in_spanish_and_in_the_pseudo_locale(
        players, settings, seed):
    names = ("Ana", "", "Zoe", "Bo")[:players]
    said = _in_three(_playout_words, "shoot_the_moon", seed, names, **settings)
    for en, es, ps in said:
        assert MOON_ENGLISH.search(en) and not MOON_ENGLISH.search(es), (en, es)
        assert not re.search(r"\b[A-Za-z]{2,}\b", re.sub(MOON_CARDS, "", ps)), (en, ps)
        assert sorted(re.findall(r"−?\d+", es)) == sorted(re.findall(r"−?\d+", en)), (en, es)
    english = " ".join(en for en, _es, _ps in said)
    assert "takes the trick" in english and "chip" in english  # tricks and chips were said
    if players == 2:
        assert "Dummy" in english
    refused = _in_three(_moon_refusals, seed, players, **settings)
    for en, es, ps in refused:
        assert MOON_ENGLISH.search(en) and not MOON_ENGLISH.search(es), (en, es)
        assert not re.search(r"\b[A-Za-z]{2,}\b", re.sub(MOON_CARDS, "", ps)), (en, ps)


def _probed_refusals(game: str, probes, seed: int, players: int, **settings) -> list[str]:
    """The rule refusing each probe the rules refuse, at every position of a seeded game of
    random bots."""
    from mathcards.bots import Bot
    from mathcards.games.registry import make_game

    state = make_game(game, num_players=players, **settings).new_game(seed=seed)
    bots = [Bot(game, "random", seed=seed * 7 + i) for i in range(players)]
    said: list[str] = []
    while not state.is_over:
        legal = state.legal_actions()
        said += [state.why_illegal(a) for a in probes(state) if a not in legal]
        state = state.apply(bots[state.current_player].choose(state))
    return said


def _moon_refusals(seed: int, players: int, **settings) -> list[str]:
    return _probed_refusals("shoot_the_moon", _moon_probes, seed, players, **settings)


def test_a_trick_games_chips_reason_is_said_in_the_language_that_shows_it():
    """An event's reason is made when the move is applied and worded when shown: a game
    played in English reads in Spanish on a Spanish page (and the events are equal)."""
    from mathcards.bots import Bot
    from mathcards.games.registry import make_game
    from mathcards.games.shoot_the_moon.events import ChipsChanged

    state = make_game("shoot_the_moon", num_players=3).new_game(seed=2)
    bots = [Bot("shoot_the_moon", "random", seed=i) for i in range(3)]
    while not state.is_over:
        state = state.apply(bots[state.current_player].choose(state))
    chips = [e for e in state.events if isinstance(e, ChipsChanged)]
    assert chips
    with i18n.using("es"):
        spanish = [e.describe(("Ana", "", "Zoe")) for e in chips]
    assert all("fichas" in t or "ficha" in t for t in spanish), spanish
    assert not any(MOON_ENGLISH.search(t) for t in spanish), spanish


# Moons and Planets' words: a trick game of prizes, planets and moons.
MP_ENGLISH = re.compile(r"\b(prizes?|planets?|moons?|tricks?|cards?|dealt|face|down|turns?|"
                        r"leads?|follows?|following|discards?|declares?|makes?|adds?|adding|"
                        r"regroups?|regrouping|takes?|sits?|out|wins?|deck|highest|rank|above|"
                        r"below|every|hand|hold|you|must|the|of|each|players?|place|only|"
                        r"their|goes?|empty|nobody|limit|fewest|total|suits?|run|aces?|twice|"
                        r"alone|mixes|red|black|spades?|hearts?|diamonds?|clubs?|\d+(?:st|nd|"
                        r"rd|th)|high|low|is|are|and|or|choose|play|plays|name|say|which)\b",
                        re.I)
MP_PLAIN = r"Ana|Zoe|Bo|\b(?:10|[2-9AJQK])[♠♥♦♣]|\bJK\b"


def _mp_check(en: str, es: str, ps: str) -> None:
    """Spanish keeps no English word, the pseudo-locale no plain word (names, cards and
    numbers only), and both say the same numbers."""
    assert MP_ENGLISH.search(en), en  # the check can fail: it finds the English
    assert not MP_ENGLISH.search(es.replace("Moons and Planets", "")), (en, es)
    assert not re.search(r"\b[A-Za-z]{2,}\b", re.sub(MP_PLAIN, "", ps)), (en, ps)
    assert sorted(re.findall(r"−?\d+", es)) == sorted(re.findall(r"−?\d+", en)), (en, es)


def _mp_words(seed: int, names: tuple[str, ...], **settings) -> list[str]:
    """Every event of a seeded game of random bots and why each card of a trick took its
    prize, worded in the page's language."""
    from mathcards.bots import Bot
    from mathcards.games.moons_and_planets import PrizesAwarded
    from mathcards.games.registry import make_game

    game = make_game("moons_and_planets", num_players=len(names), **settings)
    state = game.new_game(seed=seed)
    bots = [Bot("moons_and_planets", "random", seed=seed * 7 + i) for i in range(len(names))]
    words = [e.describe(names) for e in state.events]
    while not state.is_over:
        state = state.apply(bots[state.current_player].choose(state))
        for event in state.new_events:
            words.append(event.describe(names))
            if isinstance(event, PrizesAwarded):
                words += [r.reason for r in event.ranking_reasons]
    return words


def _mp_probes(state) -> list:
    """A move of every kind, most of them not allowed now: cards not held, not a planet
    or a moon, out of turn, with no moon to add to."""
    from mathcards.cards import parse_cards
    from mathcards.games.moons_and_planets import (
        AddToMoon,
        DeclarePlanet,
        Done,
        MakeMoon,
        PlayCard,
        Regroup,
        TurnPrize,
    )

    hand = state.hands[state.current_player]
    moons = state.moons[state.current_player]
    probes = [TurnPrize(0), TurnPrize(9), Done(), DeclarePlanet("9H 8H"), DeclarePlanet("5C"),
              MakeMoon("7S 7H"), MakeMoon("AS"), AddToMoon(0, "9C"), AddToMoon(3, "9C"),
              Regroup((("3H", "4H", "5H"),)), DeclarePlanet(()), AddToMoon(True, ())]
    probes += [PlayCard(c) for c in (*parse_cards("AS 5C 7H KD"), *hand[:4])]
    if len(hand) >= 2:
        probes += [DeclarePlanet(hand[:2]), MakeMoon(hand[:2]), MakeMoon(hand[:3]),
                   AddToMoon(0, hand[:1]), Regroup((hand[:3],))]
    if moons:
        old = tuple(c for g in moons for c in g)
        probes += [Regroup((old + hand[:1],)), Regroup((old,)), Regroup((old, hand[:2]))]
    return probes


def _mp_refusals(seed: int, players: int, **settings) -> list[str]:
    return _probed_refusals("moons_and_planets", _mp_probes, seed, players, **settings)


@pytest.mark.parametrize(("players", "settings"), [(2, {}), (3, {"trick_limit": 4}), (4, {})])
@pytest.mark.parametrize("seed", range(3))
def test_moons_and_planets_says_every_event_and_refusal_in_spanish_and_in_the_pseudo_locale(
        players, settings, seed):
    names = ("Ana", "", "Zoe", "Bo")[:players]
    said = _in_three(_mp_words, seed, names, **settings)
    for en, es, ps in said:
        _mp_check(en, es, ps)
    english = " ".join(en for en, _es, _ps in said)
    assert "takes prize" in english and "place takes" in english and " win" in english
    refused = _in_three(_mp_refusals, seed, players, **settings)
    for en, es, ps in refused:
        _mp_check(en, es, ps)
    kinds = " ".join(en for en, _es, _ps in refused)
    for words in ("you do not hold", "a trick is being played", "must first turn a prize",
                  "cards are being put down", "moon"):
        assert words in kinds, words  # refusals of every phase were probed


def test_moons_and_planets_reasons_are_said_in_the_language_that_shows_them():
    """Why a card took its prize and why the game ended are made when the move is applied
    and worded when shown: a game played in English reads in Spanish on a Spanish page."""
    from mathcards.bots import Bot
    from mathcards.games.moons_and_planets import GameWon, PrizesAwarded, SatOut
    from mathcards.games.moons_and_planets.rules import PrizeRanking
    from mathcards.games.registry import make_game

    state = make_game("moons_and_planets", num_players=3, trick_limit=3).new_game(seed=4)
    bots = [Bot("moons_and_planets", "random", seed=i) for i in range(3)]
    while not state.is_over:
        state = state.apply(bots[state.current_player].choose(state))
    rankings: list[PrizeRanking] = [r for e in state.events if isinstance(e, PrizesAwarded)
                                    for r in e.ranking_reasons]
    ended = [e for e in state.events if isinstance(e, GameWon | SatOut)]
    assert rankings and ended
    with i18n.using("es"):
        spanish = [r.reason for r in rankings] + [r.ranking for r in rankings]
        spanish += [e.describe(("Ana", "", "Zoe")) for e in ended]
    assert any("premio" in t for t in spanish) and any("gana" in t for t in spanish), spanish
    assert not any(MP_ENGLISH.search(t) for t in spanish), spanish


def test_moons_and_planets_typed_move_errors_in_spanish_keep_the_notation():
    """A typed move the game cannot read is explained in the page's language; the examples
    of the notation (``play 9H``) stay as typed."""
    from mathcards.errors import CardParseError
    from mathcards.games.moons_and_planets.notation import read_move

    for text in ("hello", "turn x", "add 9C", "play 9H 8H"):
        with i18n.using("es"), pytest.raises(CardParseError) as info:
            read_move(text)
        spanish = str(info.value)
        assert "jugada" in spanish and "play 9H" in spanish, spanish
        # without the typed text and the notation's examples: Spanish words only
        assert not MP_ENGLISH.search(re.sub(r"'[^']*'", "", spanish).split("así:")[0]), spanish


def _mp_table_errors() -> list[str]:
    from mathcards.errors import MathCardsError
    from mathcards.games.moons_and_planets import play_trick, position, prize_order

    said = []
    for bad in (lambda: position(["9H", "9H"]), lambda: play_trick("9H"),
                lambda: play_trick("9H AS"), lambda: prize_order("9H JK"),
                lambda: prize_order("9H 5C"), lambda: prize_order(""),
                lambda: prize_order("9H 9H")):
        with pytest.raises(MathCardsError) as info:
            bad()
        said.append(getattr(info.value, "reason", str(info.value)))  # an illegal move: its rule
    return said


def test_moons_and_planets_table_errors_in_spanish_and_in_the_pseudo_locale():
    """A described table the engine refuses (an exercise's position: its author reads why)
    is explained in the page's language."""
    for en, es, ps in _in_three(_mp_table_errors):
        _mp_check(en, es, ps)


# --- the explainer's words ------------------------------------------------------------
EXPLAIN_ENGLISH = re.compile("|".join(p.pattern for p in (SUMS_ENGLISH, DICE_ENGLISH)) +
                             r"|\b(is|are|adds|takes|halves|doubles|captures|counters|keeps|"
                             r"would|one|apart|only|counts|rolls|reaches)\b", re.I)


def _explained(game_id: str, seed: int, names: tuple[str, ...], **settings) -> list[str]:
    """Every step (and smaller step) of a seeded game of random bots, explained move by
    move in the page's language."""
    from mathcards.bots import Bot
    from mathcards.explain import explain_events
    from mathcards.games.registry import make_game

    game = make_game(game_id, num_players=len(names), **settings)
    state = game.new_game(seed=seed)
    bots = [Bot(game_id, "random", seed=seed * 7 + i) for i in range(len(names))]
    said: list[str] = []
    while not state.is_over:
        after = state.apply(bots[state.current_player].choose(state))
        for step in explain_events(state, after, names):
            said += [step.spoken, *(child.spoken for child in step.children)]
        state = after
    return said


@pytest.mark.parametrize("game_id, settings", [("suns_to_moons", {"target_score": 2}),
                                               ("dice_stacks", {}), ("sums", {})])
@pytest.mark.parametrize("seed", range(4))
def test_the_explainer_says_whole_games_in_spanish_and_in_the_pseudo_locale(game_id, settings,
                                                                           seed):
    for en, es, ps in _in_three(_explained, game_id, seed, ("Ana", ""), **settings):
        assert EXPLAIN_ENGLISH.search(en), en  # the check can fail: it finds the English
        assert not EXPLAIN_ENGLISH.search(es), (en, es)
        plain = re.sub(r"Ana|\b(?:10|[2-9AJQK])[♠♥♦♣]|JK", "", ps)
        assert not re.search(r"\b[A-Za-z]{2,}\b", plain), (en, ps)
        # the arithmetic is the same: every number and sign, in any order
        assert sorted(re.findall(r"[−+×÷½±=]|\d+", es)) == sorted(
            re.findall(r"[−+×÷½±=]|\d+", en)), (en, es)


def _suns_to_moons_hints(seed: int) -> list[str]:
    """The explainer's hint at each level for the player to act, at every position of a
    seeded game of random bots."""
    from mathcards.bots import Bot
    from mathcards.games.registry import make_game
    from mathcards.games.suns_to_moons.explain import hint

    state = make_game("suns_to_moons", num_players=2, target_score=2).new_game(seed=seed)
    bots = [Bot("suns_to_moons", "random", seed=seed * 7 + i) for i in range(2)]
    said: list[str] = []
    while not state.is_over:
        said += [hint(state, level).sentence for level in (1, 2, 3)]
        state = state.apply(bots[state.current_player].choose(state))
    return said


HINT_ENGLISH = re.compile(r"\b(the|goal|play|reaches?|turn|safe|none|your|card|after|"
                          r"Joker|way|there|deck|away|then|as|end|choice|with)\b", re.I)


@pytest.mark.parametrize("seed", range(6))
def test_suns_to_moons_hints_read_in_spanish_and_in_the_pseudo_locale(seed):
    """The walk of every page (branch h41w, tests/browser/test_walk_languages.py) found the
    hints of a Suns to Moons table in English: "play your 7♥; no play is safe this turn"."""
    said = _in_three(_suns_to_moons_hints, seed)
    assert any(HINT_ENGLISH.search(en) for en, _es, _ps in said)  # it can fail
    for en, es, ps in said:
        assert not HINT_ENGLISH.search(es), (en, es)
        plain = re.sub(r"\b(?:10|[2-9AJQK])[♠♥♦♣]|JK", "", ps)
        assert not re.search(r"\b[A-Za-z]{2,}\b", plain), (en, ps)
        assert sorted(re.findall(r"[−+]|\d+", es)) == sorted(re.findall(r"[−+]|\d+", en)), \
            (en, es)


# --- the refusals every game shares (mathcards/games/base.py) --------------------------
@pytest.mark.parametrize("game_id", every_game())
def test_the_shared_refusals_read_in_spanish(game_id):
    from mathcards.bots import Bot
    from mathcards.games.registry import get_game_class, make_game

    players = max(2, get_game_class(game_id).min_players)
    game = make_game(game_id, num_players=players)
    state = game.new_game(seed=3)
    english = [state.reason_refused(object())]  # not a move of this game
    with i18n.using("es"):
        spanish = [state.reason_refused(object())]
    bots = [Bot(game_id, "random", seed=i) for i in range(players)]
    while not state.is_over:
        state = state.apply(bots[state.current_player].choose(state))
    english.append(state.reason_refused(object()))
    with i18n.using("es"):
        spanish.append(state.reason_refused(object()))
    assert english == [f"it is not a {game.title} move", "the game is over"]
    assert spanish == [f"no es una jugada de {game.title}", "la partida ha terminado"]


def test_every_marked_string_is_in_the_catalog():
    """Every ``_("...")``, ``ngettext``, ``pgettext`` and ``N_`` call with a literal text in
    mathcards/ and widgets/ is in the template: Babel's extractor does not read inside an
    f-string, so a call written there would never be translated."""
    import ast
    from pathlib import Path

    keywords = {"_": 0, "gettext": 0, "N_": 0, "ngettext": 0, "pgettext": 1, "later": 0,
                "later_n": 0}
    template = {str(m.id[0] if isinstance(m.id, tuple) else m.id) for m in C.read(C.TEMPLATE)}
    missing = []
    for folder in C.SOURCES:
        for path in sorted((C.ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id in keywords and len(node.args) > keywords[node.func.id]):
                    continue
                arg = node.args[keywords[node.func.id]]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) \
                        and arg.value not in template:
                    missing.append(f"{Path(folder) / path.relative_to(C.ROOT / folder)}:"
                                   f"{node.lineno} {arg.value!r}")
    assert not missing, "not extracted (inside an f-string?): " + "; ".join(missing)


# --- "I count" at the Sums and Dice Stacks tables: everything the student reads ------------
def _page_text(html: str) -> list[str]:
    """The words an HTML fragment shows and reads aloud: its text and its aria-labels and
    tooltips, markup and class names left out."""
    said = re.findall(r'(?:aria-label|title)="([^"]*)"', html)
    return [*said, re.sub(r"<[^>]+>", " ", html)]


def _i_count_words(view_of, game_of, seed: int, wrong_of, *, board: bool = True,
                   refusals: bool = True) -> list[str]:
    """Everything a student reads at a seeded table at "I count" (against a bot, the
    student following its moves): the board, the status, the buttons and the hand's
    tooltips, the hints (both levels), each question, a word that is not an answer,
    ``wrong_of(question)`` once (a nudge), then the right answer and its feedback.
    Without ``board``: the questions' words only (the answer's buttons, no board,
    status or move buttons). Without ``refusals``: not the words of a move the rules
    refuse (the engine's, tested with its events)."""
    import html as _html

    from mathcards.asking import COUNT
    from mathcards.table import TableController

    # the whole deal from the seed (a table's own deal keeps its hidden cards secret)
    ctl = TableController(view_of(), state=game_of().new_game(seed), bot_delay=0, save=False,
                          level=COUNT, bot_seed=seed, seats=("human", "random"))
    ctl.set_follow(True)
    rng = __import__("random").Random(seed)
    said: list[str] = []

    def screen() -> None:
        if not board:
            said.extend(f"{label} {tip}" for _k, label, tip, _p in ctl.asking.answer_choices())
            return
        obs = ctl.public_observation()
        said.extend(_page_text(ctl.view.board_html(ctl.shown_state, obs, ctl.seat_names,
                                                   viewer=0)))
        said.append(ctl.status_line())
        said.extend(c.label + " " + c.tooltip for c in ctl.offered_choices())
        # the hand's tooltips: the game's words (the table's own "cannot be played now: "
        # prefix is mathcards/table.py's, marked with the table's words, not here)
        said.extend(c.tooltip.removeprefix("cannot be played now: ")
                    for c in ctl.card_states())

    for _step in range(400):
        if ctl.state.is_over:
            break
        screen()
        pending = ctl.asking.pending
        if ctl.asking.waiting:
            ctl.click_choice("ok")
        elif pending is not None:
            said.append(ctl.asking.prompt())
            assert not ctl.attempt(ctl.answer, "¿?")  # not an answer: one line, kept
            said.append(ctl.message)
            wrong = wrong_of(pending.question)
            if wrong is not None and ctl.asking.pending is not None:
                ctl.answer(wrong)
                said.append(ctl.asking.feedback)
            if ctl.asking.pending is not None:
                ctl.answer(str(pending.question.expected))
            said.append(ctl.asking.feedback)
        elif ctl.acting_human():
            for level in (1, 2):
                ctl.ask_hint(level)
                said.append(ctl.hint_text())
            cards = [c for c in ctl.card_states() if c.enabled]
            choices = [c for c in ctl.offered_choices() if not c.key.startswith("off:")]
            if cards and (not choices or rng.random() < 0.7):
                clicked = ctl.attempt(ctl.click_card, rng.choice(cards).key)
            else:
                clicked = ctl.attempt(ctl.click_choice, rng.choice(choices).key)
            if not clicked and refusals:  # a move the rules refuse (a counter that
                said.append(ctl.message)  # captures nothing)
        else:
            break
    assert ctl.state.is_over
    screen()
    return [_html.unescape(" ".join(s.split())) for s in said if s and s.strip()]


def _sums_wrong(question) -> str | None:
    """A wrong claim: "none" when a card captures, else nothing wrong (a capture to make
    up would be refused as not one)."""
    return "none" if question.expected != "none" else None


def _sums_i_count_words(seed: int) -> list[str]:
    from mathcards.games.sums import Sums
    from mathcards.widgets.sums import SumsView

    return _i_count_words(SumsView, lambda: Sums(num_players=2), seed, _sums_wrong)


SUMS_I_COUNT_ENGLISH = re.compile(SUMS_ENGLISH.pattern[:-3] + r"|what|does|which|capture|"
                                  r"captures|nothing|draw|pile|community|threatened|"
                                  r"counter|choose|several|empty|look|again|right|"
                                  r"quite|check|sign|from|cards?|their|it)\b", re.I)


@pytest.mark.parametrize("seed", [2, 5])
def test_a_sums_table_at_i_count_reads_in_spanish_and_in_the_pseudo_locale(seed):
    said = _in_three(_sums_i_count_words, seed)
    assert any(SUMS_I_COUNT_ENGLISH.search(en) for en, _es, _ps in said)  # it can fail
    for en, es, ps in said:
        assert not SUMS_I_COUNT_ENGLISH.search(es), (en, es)
        plain = re.sub(r"\b(?:10|[2-9AJQK])[♠♥♦♣]|JK|Sums", "", ps)
        assert not re.search(r"\b[A-Za-z]{2,}\b", plain), (en, ps)


def _dice_stacks_wrong(question) -> str | None:
    """A wrong answer: one more than a number; a stack's other way."""
    if isinstance(question.expected, int):
        return str(question.expected + 1)
    if question.kind == "stack":
        kings = question.expected.partition(", ")[2]
        other = "taking away" if question.expected.startswith("adding") else "adding"
        return f"{other}, {kings}" if kings else other
    return None


def _dice_stacks_i_count_words(seed: int) -> list[str]:
    from mathcards.games.dice_stacks import DiceStacks
    from mathcards.widgets.dice_stacks import DiceStacksView

    return _i_count_words(DiceStacksView, lambda: DiceStacks(num_players=2), seed,
                          _dice_stacks_wrong)


DICE_I_COUNT_ENGLISH = re.compile(DICE_ENGLISH.pattern[:-3] + r"|what|does|which|your|"
                                  r"adding|taking|away|right|quite|check|from|cards?|it)\b",
                                  re.I)


@pytest.mark.parametrize("seed", [4, 7])
def test_dice_stacks_questions_at_i_count_read_in_spanish_and_in_the_pseudo_locale(seed):
    said = _in_three(_dice_stacks_i_count_words, seed)
    assert any(DICE_I_COUNT_ENGLISH.search(en) for en, _es, _ps in said)  # it can fail
    for en, es, ps in said:
        assert not DICE_I_COUNT_ENGLISH.search(es), (en, es)
        plain = re.sub(r"\b(?:10|[2-9AJQK])[♠♥♦♣]|JK|Dice Stacks", "", ps)
        assert not re.search(r"\b[A-Za-z]{2,}\b", plain), (en, ps)


def _planets_wrong(question) -> str | None:
    """A wrong total: a Jack, Queen or King of the planet counted 11, 12, 13 (as in the
    other games), else one more."""
    faces = sum(1 for c in question.cards if c[:-1] in ("J", "Q", "K"))
    return str(question.expected + (1 if not faces else 2))


PLANET_HANDS = ["9H 8H 5H 7S 7D 7C 2C QS 4D", "2H 3H 4H 6S 6D 9C 10C JC KD"]
PLANET_DECK = ("AS AH 3S 3D 4S 4C 5S 5D 6C 6H 8S 8D 8C 9S 9D 10S 10D 10H JS JD JH QH QD "
               "QC KS KH KC 2S 2D 3C")


def _planets_i_count_words(seed: int) -> list[str]:
    """A seeded Moons and Planets table at "I count" (the questions, hints and feedback;
    the engine's refusals are its own), then the student's own planets on a dealt
    table: cards that do not total 15 to 18, a planet answered wrong twice (the step
    shown), and the explainer's step of a total that is no planet's."""
    from mathcards import explain as X
    from mathcards.asking import COUNT
    from mathcards.games.moons_and_planets import DeclarePlanet, MoonsAndPlanets, position
    from mathcards.games.moons_and_planets import questions as asking
    from mathcards.table import TableController
    from mathcards.widgets.tricks import MoonsAndPlanetsView

    said = _i_count_words(MoonsAndPlanetsView, lambda: MoonsAndPlanets(num_players=2), seed,
                          _planets_wrong, board=False, refusals=False)
    ctl = TableController(MoonsAndPlanetsView(), state=position(PLANET_HANDS, deck=PLANET_DECK),
                          bot_delay=0, save=False, level=COUNT, seats=("human", "strong"))

    def lay(cards: str) -> None:
        ctl.click_choice("clear")
        for name in cards.split():
            ctl.click_card(f"h{next(i for i, c in enumerate(ctl.hand()) if str(c) == name)}")
        ctl.attempt(ctl.click_choice, "lay")

    lay("9H 5H")  # 14: no planet, refused with the rule (not the total)
    said.append(ctl.message)
    lay("QS 7S")  # 17, answered 19 (the Queen counted 12), then 18: the step is shown
    said.append(ctl.asking.prompt())
    for given in ("19", "18"):
        ctl.answer(given)
        said.append(ctl.asking.feedback)
    said.append(ctl.explanation.text)
    state = position(PLANET_HANDS, deck=PLANET_DECK)
    too_much = DeclarePlanet(tuple(parse_card(c) for c in ("9H", "8H", "5H")))  # 22
    said.append(X.spoken(asking.explain(asking.refused_move(state, too_much, 0))))
    said.append(asking.rule_words(state, too_much, ""))
    return [s for s in said if s and s.strip()]


PLANETS_ENGLISH = re.compile(r"\b(puts?|planet|what|does|do|its|cards?|total|count|you|"
                             r"right|not quite|close|try|again|add|one suit|is not|a moon|"
                             r"no hints|yet|step|shown|last move|player)\b", re.I)


@pytest.mark.parametrize("seed", [4, 5])  # a planet of number cards; one with a King
def test_moons_and_planets_questions_at_i_count_read_in_spanish_and_the_pseudo_locale(seed):
    """The planet's question, its nudges and feedback, the hint, the rule of a planet
    refused and the explainer's step were English on a Spanish page."""
    said = _in_three(_planets_i_count_words, seed)
    english = " ".join(en for en, _es, _ps in said)
    assert "puts down the planet" in english and "You put down the planet" in english
    assert "is not a planet" in english and "count 10" in english
    _no_english_left(said, PLANETS_ENGLISH,
                     r"\b(?:10|[2-9AJQK])[♠♥♦♣]|\bJ, Q, K\b|\b[JQK]\b|\b\d+\b|"
                     r"Moons and Planets|Ana|Zoe")


def test_the_answer_box_says_its_words_in_the_pages_language():
    """The answer box's script wrote "Answer:", "Check" and the pad's names in English:
    now the box carries them in the page's language, every one its script shows."""
    import re as _re

    from mathcards.widgets.answer_box import _ESM, AnswerBox

    shown = set(_re.findall(r"\bW\.(\w+)", _ESM))  # every word the script shows
    english = AnswerBox().words
    assert shown and shown <= set(english), (shown, english)
    with i18n.using("es"):
        spanish = AnswerBox().words
    with i18n.using("qps"):
        pseudo = AnswerBox().words
    assert spanish["answer"] == "Respuesta:" and spanish["ok"] == "Vale"
    for key in shown:
        assert spanish[key] != english[key], key
        assert not _re.search(r"\b[A-Za-z]{2,}\b", pseudo[key]), pseudo[key]


def _name_picker_words(data_dir) -> list[str]:
    """What a student reads before a page starts: the name picker (a typed name, a
    class's names, a class's codes), the refusals of a name, and the greeting."""
    import html as _html

    from mathcards import names
    from mathcards.classes import Member, SchoolClass
    from mathcards.students import StudentNameError, clean_name
    from mathcards.widgets.classes import NamePicker, greeting_html

    said: list[str] = []

    def shown(picker) -> None:
        for child in picker.widget.children:
            for w in (*getattr(child, "children", ()), child):
                said.extend(str(getattr(w, k, "") or "") for k in
                            ("value", "description", "tooltip", "placeholder")
                            if isinstance(getattr(w, k, ""), str))

    listed = SchoolClass("7b", False, (Member("Ana", None), Member("Zoe", None)))
    coded = SchoolClass("7c", True, (Member("Bo", "K7P2QX"),))
    for school_class in (None, listed, coded):
        picker = NamePicker(lambda _n: None, school_class=school_class, browser="b1")
        shown(picker)
        picker.submit("0000") if school_class is coded else None  # a wrong code
        shown(picker)
    for bad in ("a  b", "Аna", 7):  # two spaces; Cyrillic А with Latin letters; not text
        try:
            clean_name(bad)
        except StudentNameError as exc:
            said.append(str(exc))
    assert names.claim("Ana", "b1") == ""
    said.append(names.claim("Ana", "b2"))  # another browser's
    said.append(greeting_html("Ana", "7b"))
    return [" ".join(_html.unescape(re.sub(r"<[^>]+>", " ", s)).split()) for s in said
            if s.strip("\u200b \n") and s != "ana"]


def test_the_name_picker_and_a_names_refusals_read_in_spanish_and_the_pseudo_locale(
        tmp_path, monkeypatch):
    """Every page starts with "Who are you?": the picker, the class's lines, a refused
    name's rule and the greeting were English on a Spanish page."""
    said = []
    for lang in ("en", "es", "qps"):  # each its own names file: the claims start afresh
        monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path / lang))
        with i18n.using(lang):
            said.append(_name_picker_words(tmp_path / lang))
    english = re.compile(r"\b(who|are|you|your|name|class|pick|teacher|start|code|"
                         r"playing|practice|taken|browser|letters|cannot|used)\b", re.I)
    assert len(said[0]) == len(said[1]) == len(said[2]) > 8
    assert sum(bool(english.search(en)) for en in said[0]) > 8  # the check can fail
    for en, es, ps in zip(*said, strict=True):
        assert not english.search(es.replace("?student=", "")), (en, es)
        plain = re.sub(r"Ana|Zoe|Bo\b|7b|7c|student|ana|Cyrillic|Latin|а", "", ps)
        assert not re.search(r"\b[A-Za-z]{2,}\b", plain), (en, ps)


def _widget_words(widget) -> list[str]:
    """Every word a widget tree shows or says: HTML, labels, tooltips, placeholders and
    a dropdown's choices, markup and class names left out."""
    import html as _html

    found: list[str] = []
    stack = [widget]
    while stack:
        w = stack.pop()
        stack.extend(getattr(w, "children", ()))
        found.extend(text for key in ("description", "tooltip", "placeholder")
                     if isinstance(text := getattr(w, key, None), str))
        if type(w).__name__ in ("HTML", "HTMLMath", "Label"):
            found.extend(_page_text(re.sub(r"<(style|script)\b.*?</\1>", "", w.value,
                                           flags=re.S)))
        found.extend(getattr(w, "_options_labels", ()))  # a dropdown's choices
    return [" ".join(_html.unescape(t).split()) for t in found if t.strip("\u200b \n")]


def _classes_page_words() -> list[str]:
    from mathcards.widgets.classes import ClassesPanel, TournamentPanel

    panel = ClassesPanel()
    assert panel.save("7b", "Ana\nBo", codes=True)
    assert not panel.save("", "Ana")  # refused: no class name
    panel.w_each.value = True
    rooms = TournamentPanel()
    assert rooms.make()
    return _widget_words(panel.widget) + _widget_words(rooms.widget)


def test_the_teachers_classes_and_tournament_panels_read_in_spanish_and_the_pseudo_locale(
        tmp_path, monkeypatch):
    said = []
    for lang in ("en", "es", "qps"):  # each its own data: the same class saved afresh
        monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path / lang))
        with i18n.using(lang):
            said.append(_classes_page_words())
    english = re.compile(r"\b(class|classes|names?|students?|codes?|links?|save|rooms?|"
                         r"players?|game|print|each|made|tournament)\b", re.I)
    assert len(said[0]) == len(said[1]) == len(said[2]) > 10
    assert sum(bool(english.search(en)) for en in said[0]) > 10  # the check can fail
    for en, es, ps in zip(*said, strict=True):
        shown = re.sub(r"https?://\S+|\S+\.ipynb\S*|\?student=\w+", "", es)
        assert not english.search(shown), (en, es)
        plain = re.sub(r"https?://\S+|\S+\.ipynb\S*|Ana|Bo\b|Maya|7b|\b[A-Z0-9]{5,6}\b|"
                       r"Sums|Suns to Moons|Dice Stacks|Shoot the Moon|Moons and Planets", "",
                       ps)
        assert not re.search(r"\b[A-Za-z]{2,}\b", plain), (en, ps)


def test_a_play_pages_who_line_reads_in_spanish_and_the_pseudo_locale(tmp_path, monkeypatch):
    """The table's "Playing as ..." line and why a name plays as the guest were English
    on a Spanish page (and the room panel read the name back out of the English line)."""
    from mathcards.widgets import student_slot

    said = []
    for lang in ("en", "es", "qps"):
        monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path / lang))
        with i18n.using(lang):
            words = [*student_slot(None)[1:], *student_slot("a  b")[1:],
                     *student_slot("Ana", "b1")[1:], *student_slot("Ana", "b2")[1:]]
            said.append([w for w in words if w])
    english = re.compile(r"\b(playing|as|guest|saved|game|visitor|shares|add|page|address|"
                         r"keep|your|own|name|taken)\b", re.I)
    assert len(said[0]) == len(said[1]) == len(said[2]) == 6
    for en, es, ps in zip(*said, strict=True):
        assert english.search(en), en
        assert not english.search(es.replace("?student=", "")), (en, es)
        plain = re.sub(r"Ana|\?student=\w+|a {2}b", "", ps)
        assert not re.search(r"\b[A-Za-z]{2,}\b", plain), (en, ps)


def _show_hints(view_of, game_of, seed: int) -> list[str]:
    """The three hints of each of a student's turns at a seeded "Show me the sums" table
    (clicking at random between them)."""
    import random as _random

    from mathcards.table import TableController

    ctl = TableController(view_of(), state=game_of().new_game(seed), bot_delay=0, save=False,
                          level="show", bot_seed=seed, seats=("human", "random"))
    rng = _random.Random(seed)
    said: list[str] = []
    for _step in range(300):
        if ctl.state.is_over or not ctl.acting_human():
            break
        for level in (1, 2, 3):
            ctl.ask_hint(level)
            said.append(ctl.hint_text())
        cards = [c for c in ctl.card_states() if c.enabled]
        choices = [c for c in ctl.offered_choices() if not c.key.startswith("off:")]
        if cards and (not choices or rng.random() < 0.7):
            ctl.attempt(ctl.click_card, rng.choice(cards).key)
        elif choices:
            ctl.attempt(ctl.click_choice, rng.choice(choices).key)
    return said


def test_sums_hints_at_show_me_the_sums_read_in_spanish_and_the_pseudo_locale():
    """Sums' third hint and its choice between captures were English at "Show me the
    sums" on a Spanish page."""
    _check_show_hints("sums")


def test_dice_stacks_hints_at_show_me_the_sums_read_in_spanish_and_the_pseudo_locale():
    """Every Dice Stacks hint was English at "Show me the sums" on a Spanish page."""
    _check_show_hints("dice_stacks")


def _check_show_hints(game: str) -> None:
    from mathcards.games.registry import get_game_class
    from mathcards.widgets import make_view

    game_cls = get_game_class(game)
    said = _in_three(_show_hints, lambda: make_view(game), lambda: game_cls(num_players=2),
                     5)
    english = re.compile(r"\b(your|their|play|captures?|stacks?|these|cards?|make|roll|"
                         r"dice|first|draw|take|worth|here|one|points?|the|with)\b", re.I)
    assert any(english.search(en) for en, _es, _ps in said)  # the check can fail
    for en, es, ps in said:
        assert not english.search(es), (en, es)
        plain = re.sub(r"\b(?:10|[2-9AJQK])[♠♥♦♣]|JK", "", ps)
        assert not re.search(r"\b[A-Za-z]{2,}\b", plain), (en, ps)


def _pages_in_three(words, tmp_path, monkeypatch) -> list[list[str]]:
    """``words()`` in en, es and qps, each language with a data folder of its own (a page's
    answers and progress start empty in each)."""
    said = []
    for lang in ("en", "es", "qps"):
        monkeypatch.setenv("MATHCARDS_DATA_DIR", str(tmp_path / lang))
        monkeypatch.setenv("MATHCARDS_PROGRESS", str(tmp_path / lang / "progress.sqlite3"))
        with i18n.using(lang):
            said.append(words())
    return said


def _practice_words() -> list[str]:
    from mathcards.widgets.exercises import hint_html, practice_page, progress_html
    from tests.browser.server import LESSONS

    samples = LESSONS / "exercises"
    listed = practice_page(samples, query="student=ana", ask_name=False)
    guest = practice_page(samples, query="set=nothing_here", ask_name=False)
    view = practice_page(samples, query="set=suns_to_moons&student=ana", ask_name=False)
    empty = progress_html(view.session)
    view.submit("0")  # an answer, right or wrong: a row in the attempts
    said = [*_widget_words(listed), *_widget_words(guest), *_page_text(empty),
            *_page_text(progress_html(view.session))]
    hint = view.show_hint()
    if hint is not None:
        said += _page_text(hint_html(hint))
    return [" ".join(s.split()) for s in said if s.strip()]


def test_the_practice_page_and_a_students_progress_read_in_spanish_and_pseudo(
        tmp_path, monkeypatch):
    """The practice page's list, its refusals, a student's progress tables and a hint's
    "Hint 1 of 3" were English on a Spanish page. Left out: the sets' own titles and the
    exercises' words (each set's and each kind's)."""
    said = _pages_in_three(_practice_words, tmp_path, monkeypatch)
    assert len(said[0]) == len(said[1]) == len(said[2]) > 4
    # the page's own words (the sets' titles and the exercises' words are the sets' and
    # the kinds', checked where they are made)
    page_words = ["Practice", "Choose a set of exercises", "Your progress is kept",
                  "You practise as the guest", "there is no exercise set", "Your progress:",
                  "# exercise attempts status best", "not tried", "tried",
                  "progress by exercise", "your attempts", "exercise answer result hints",
                  "Hint 1 of 3:"]
    english, spanish, pseudo = (" | ".join(words) for words in said)
    assert all(w in english for w in page_words)  # the check can fail
    for words in (spanish, pseudo):
        assert not [w for w in page_words if w in words], words
    assert "Pista 1 de 3:" in spanish and "Elige una serie de ejercicios." in spanish
    assert "# ejercicio intentos estado mejor" in spanish and "sin intentar" in spanish


def _no_english_left(said: list[tuple[str, str, str]], english: re.Pattern[str],
                     notation: str) -> None:
    """``english`` finds words in the English (the check can fail), none in the Spanish,
    and the pseudo-locale has no plain word: ``notation`` (cards, numbers) aside."""
    assert any(english.search(en) for en, _es, _ps in said)
    for en, es, ps in said:
        assert not english.search(re.sub(notation, "", es)), (en, es)
        assert not re.search(r"\b[A-Za-z]{2,}\b", re.sub(notation, "", ps)), (en, ps)


SUNS_EXERCISES = """\
title: Integers
id: integers
exercises:
  - kind: deck_value
    deck: 9H -4S +2D JK
  - kind: reach_goal
    deck: 7H -10S
    hand: 3H 4S 9D
    goal: 0
  - kind: reach_goal
    deck: 7H -10S
    hand: 3H 4S 9D 2C
    goal: 3
    most_plays: 2
"""


def _suns_exercise_words() -> list[str]:
    """Each Suns to Moons exercise's prompt, a wrong answer's feedback, its hints and its
    worked solution, each step of them included."""
    from mathcards.exercises import load_set_text

    said: list[str] = []

    def result(r) -> None:
        said.append(r.headline)
        said.extend(str(getattr(s, "sentence", "") or getattr(s, "text", "")) for s in r.steps
                    if type(s).__name__ == "Fact")

    for exercise in load_set_text(SUNS_EXERCISES, name="integers"):
        variant = exercise.variant("ana")
        said.append(variant.prompt())
        wrong = ["+3H", "+9D", "-4S"] if exercise.kind.name == "reach_goal" else "100"
        result(variant.kind.check(variant.position, wrong))
        said.extend(str(variant.hint(level).sentence) for level in (1, 2, 3))
        result(variant.solution())
    return [s for s in said if s.strip()]


def test_suns_to_moons_exercises_read_in_spanish_and_the_pseudo_locale():
    """The practice page's Suns to Moons exercises (their prompts, feedback, hints and
    worked solutions) were English on a Spanish page."""
    said = _in_three(_suns_exercise_words)
    english = re.compile(r"\b(the|deck|play|cards?|goal|right|not quite|hand|start|with|"
                         r"add|order|step|way|then|value|rule|counted)\b", re.I)
    _no_english_left(said, english, r"\b(?:10|[2-9AJQK])[♠♥♦♣]|JK|\b\d+\b|(across|upright|play)\b")


SUMS_EXERCISES = """\
title: Captures
id: captures
exercises:
  - kind: find_capture
    played: 7H
    own: 3H 2S
    opponent: 10D 4S QC
  - kind: find_capture
    hand: 5C 9H
    own: 3C 2H
    opponent: 8S 7D
"""


def _sums_exercise_words() -> list[str]:
    """Each Sums exercise's prompt, a wrong claim's feedback and its reason, its hints and
    its worked solution's headline."""
    from mathcards.exercises import load_set_text

    said: list[str] = []
    for exercise in load_set_text(SUMS_EXERCISES, name="captures"):
        variant = exercise.variant("ana")
        said.append(variant.prompt())
        played = variant.position.get("played") or variant.position["hand"][0]
        wrong = variant.kind.check(variant.position, [played.symbol, "QC" if
                                                      "QC" in variant.text else "7D"])
        said.append(wrong.headline)
        said.extend(str(s.sentence) for s in wrong.steps if hasattr(s, "sentence"))
        said.extend(str(variant.hint(level).sentence) for level in (1, 2, 3))
        said.append(variant.solution().headline)
    return [s for s in said if s.strip()]


def test_sums_exercises_read_in_spanish_and_the_pseudo_locale():
    """The practice page's Sums exercises were English on a Spanish page."""
    said = _in_three(_sums_exercise_words)
    assert any(en.startswith("Not quite:") for en, _es, _ps in said)  # a wrong claim
    english = re.compile(r"\b(you|your|play|cards?|captures?|their|which|right|not quite|"
                         r"helper|colour|try|works?|here)\b", re.I)
    _no_english_left(said, english, r"\b(?:10|[2-9AJQK])[♠♥♦♣]|JK|\b\d+\b")


DICE_EXERCISES = """\
title: Stacks
id: stacks
exercises:
  - kind: make_stacks
    dice: [3, 5]
    hand: 8H 10S 2D 5C 3H KD
  - kind: is_stack
    dice: [2, 6]
    cards: 10H 2S
  - kind: is_stack
    dice: [2, 6]
    cards: 4H 3S KC
"""


def _dice_exercise_words() -> list[str]:
    """Each Dice Stacks exercise's prompt, a wrong answer's feedback, its hints and its
    worked solution's headline."""
    from mathcards.exercises import load_set_text

    said: list[str] = []
    for exercise in load_set_text(DICE_EXERCISES, name="stacks"):
        variant = exercise.variant("ana")
        said.append(variant.prompt())
        if exercise.kind.name == "make_stacks":
            said.extend(variant.kind.check(variant.position, answer).headline  # one refused
                        for answer in ([], [["8H"], ["10S", "2D"]], [["5C", "3H"]]))
        else:
            said.append(variant.kind.check(variant.position, "no").headline)
            said.append(variant.kind.check(variant.position, "yes").headline)
        said.extend(str(variant.hint(level).sentence) for level in (1, 2, 3))
        said.append(variant.solution().headline)
    return [s for s in said if s.strip()]


def test_dice_stacks_exercises_read_in_spanish_and_the_pseudo_locale():
    """The practice page's Dice Stacks exercises were English on a Spanish page."""
    said = _in_three(_dice_exercise_words)
    assert any(en.startswith(("Not quite:", "Partly right:")) for en, _es, _ps in said)
    english = re.compile(r"\b(the|dice|show|stacks?|cards?|make|points?|right|not quite|"
                         r"partly|answer|yes|values?|added|largest|Kings?|double|halve|"
                         r"these|here)\b", re.I)
    _no_english_left(said, english, r"\b(?:10|[2-9AJQK])[♠♥♦♣]|JK|\b\d+\b|\bK\b")


def _landing_card_words(markdown: str) -> list[str]:
    """The words a student reads on the landing page's cards outside the pictures and
    game titles: 'Practises: …', the blurb, the Learn / Play buttons."""
    found = re.findall(r'<div class="mc-practises">(.*?)</div>', markdown)
    found += re.findall(r"<p>(.*?)</p>", markdown)
    found += re.findall(r'<a class="mc-button"[^>]*>(.*?)</a>', markdown)
    return found


def test_landing_cards_are_said_in_the_page_language():
    from mathcards.widgets.lesson import landing_markdown

    english = _landing_card_words(landing_markdown())
    assert "Learn" in english and "Practises: sums and differences" in english
    with i18n.using("qps"):
        pseudo = _landing_card_words(landing_markdown())
    assert len(pseudo) == len(english) >= 15  # five cards: practises, blurb, two buttons
    for text in pseudo:  # every word went through the catalog: none is left in English
        plain = [w for w in re.findall(r"[A-Za-z]{3,}", text) if w.isascii()]
        assert not plain, text
    with i18n.using("es"):
        spanish = _landing_card_words(landing_markdown())
    assert "Aprender" in spanish and "Practicas: sumas y restas" in spanish
    assert not set(spanish) & set(english)
    assert _landing_card_words(landing_markdown()) == english  # English came back after it


TRICK_EXERCISES = """\
title: Tricks
id: tricks
exercises:
  - kind: who_takes_trick
    trick: G12 G3 R3
  - kind: is_play_legal
    hand: G4 R9 B2
    led: G7
    card: R9
  - kind: is_play_legal
    hand: G4 R9
    card: R9
"""


def _trick_exercise_words() -> list[str]:
    """Each Shoot the Moon exercise's prompt, a wrong answer's feedback and its reason,
    its hints and its worked solution."""
    from mathcards.exercises import load_set_text

    said: list[str] = []
    for exercise in load_set_text(TRICK_EXERCISES, name="tricks"):
        variant = exercise.variant("ana")
        said.append(variant.prompt())
        answers = [0, 1] if exercise.kind.name == "who_takes_trick" else ["yes", "no"]
        for answer in answers:
            result = variant.kind.check(variant.position, answer)
            said.append(result.headline)
            said.extend(str(s.sentence) for s in result.steps if hasattr(s, "sentence"))
        said.extend(str(variant.hint(level).sentence) for level in (1, 2, 3))
        said.append(variant.solution().headline)
    return [s for s in said if s.strip()]


def test_shoot_the_moon_exercises_read_in_spanish_and_the_pseudo_locale():
    """The practice page's Shoot the Moon exercises were English on a Spanish page."""
    said = _in_three(_trick_exercise_words)
    english = re.compile(r"\b(which|card|takes?|trick|led|lead|may|play|right|not quite|"
                         r"follow|colour|moon|red|nobody|yet|answer|yes)\b", re.I)
    _no_english_left(said, english, r"\b[GRB]\d+\b|[▲★●◆]\d*|\b\d+\b")


PLANET_EXERCISES = """\
title: Planets
id: planets
exercises:
  - kind: planet_or_not
    cards: 9H 8H
  - kind: planet_or_not
    cards: 5C
  - kind: moon_or_not
    cards: 7S 7D 7C
  - kind: moon_or_not
    cards: 4H 5S 6H
  - kind: which_prize
    trick: 7H KH 2S
    yours: 7H
  - kind: which_prize
    trick: 7H KH 2S JD
    yours: 2S
    prizes: 3C 8D QS 4H
"""


def _planet_exercise_words() -> list[str]:
    """Each Moons and Planets exercise's prompt, its answer buttons, both answers'
    feedback and its reason, its hints and its worked solution; a typed answer that is
    none. A sentence of the engine the kind quotes (a planet's or a moon's reason, the
    prize ranking) is its own, marked with the engine's words: left out here."""
    from mathcards.exercises import load_set_text
    from mathcards.exercises.kinds.base import AnswerError
    from mathcards.games import moons_and_planets as mp

    said: list[str] = []
    for exercise in load_set_text(PLANET_EXERCISES, name="planets"):
        variant = exercise.variant("ana")
        kind, position = variant.kind, variant.position
        engine = {mp.planet_reason(position["cards"]), mp.moon_reason(position["cards"])} \
            if "cards" in position else {kind._ranking(position).ranking}
        said.append(variant.prompt())
        said.extend(kind.choices(position))
        for answer in kind.choice_answers(position)[:2]:
            result = kind.check(position, answer)
            said.append(result.headline)
            said.extend(str(s.sentence) for s in result.steps if hasattr(s, "sentence"))
        said.extend(str(variant.hint(level).sentence) for level in (1, 2, 3))
        said.append(variant.solution().headline)
        said = [s for s in said if s not in engine]
        try:
            kind.read_answer(position, "maybe")
        except AnswerError as exc:
            said.append(str(exc))
    return [s for s in said if s.strip()]


def test_moons_and_planets_exercises_read_in_spanish_and_the_pseudo_locale():
    """The practice page's Moons and Planets exercises (Planet or not, Moon or not, Which
    prize) and every yes/no exercise's buttons were English on a Spanish page."""
    said = _in_three(_planet_exercise_words)
    english = " ".join(en for en, _es, _ps in said)
    assert "1st prize" in english and "Yes" in english and "2 cards in 1 suit" in english
    words = re.compile(r"\b(are|these|cards?|planet|moon|one|which|prize|does|your|take|led|"
                       r"right|not quite|answer|yes|suits?|colours?|ranks?|different|"
                       r"adding|follows?|discards?|highest|run|aces?|alone|st|nd|rd|th|"
                       r"number|digits)\b", re.I)
    _no_english_left(said, words, r"\b(?:10|[2-9AJQK])[♠♥♦♣]|\b[JQK]\b|\b\d+\b|♦ > ♣ > ♠ > ♥|"
                                  r"True/False|'maybe'")


def test_a_kinds_title_in_a_students_progress_and_the_most_missed_is_the_pages():
    """A student's progress table and the dashboard's most-missed exercises name an
    exercise with no prompt of its own by its kind's title: it was English on a Spanish
    page (the dashboard's grid already said it in the page's language)."""
    from mathcards.exercises import load_set_text
    from mathcards.exercises.results import most_missed
    from mathcards.exercises.session import Session

    session = Session(load_set_text(PLANET_EXERCISES, name="planets"), "ana", store=False)
    assert not session.check(1, "no").correct and not session.check(5, 1).correct

    def titles() -> tuple[list[str], list[str]]:
        return ([p.title for p in session.progress()],
                [m.title for m in most_missed(session.attempts())])

    progress, missed = titles()
    assert progress[::2] == ["Planet or not?", "Moon or not?", "Which prize?"]
    assert sorted(missed) == ["Planet or not?", "Which prize?"]
    with i18n.using("es"):
        progress, missed = titles()
    assert progress[::2] == ["¿Planeta o no?", "¿Luna o no?", "¿Qué premio?"]
    assert sorted(missed) == ["¿Planeta o no?", "¿Qué premio?"]


def _exercise_page_words() -> list[str]:
    """Every exercise of every sample set as the practice page shows it: the picture, the
    answer buttons, a card picked (its signs), a stack made, a wrong answer checked, a hint,
    the worked solution, the end of the set; and the class link builder."""
    from mathcards.widgets.exercises import class_link_builder, practice_page
    from tests.browser.server import LESSONS

    samples = LESSONS / "exercises"
    said: list[str] = []
    for path in sorted(samples.glob("*.yaml")):
        view = practice_page(samples, query=f"set={path.stem}&student=ana", ask_name=False)
        view.answer_burst, view._tokens = 10_000, 10_000.0
        for number in range(1, len(view.session) + 1):
            view.go(number)
            said += _widget_words(view)
            style = view.variant.kind.answer_style
            if style == "plays":
                plain = [i for i, c in enumerate(view.variant.position["hand"])
                         if not c.is_joker]
                if plain:
                    view._pick_card(plain[0])
                    said += _widget_words(view.w_signs)
                    view.w_signs.children[1].click()
                    said += _widget_words(view.w_built)
            elif style == "stacks":
                view._toggle_card(0)
                view._make_stack()
                said += _widget_words(view.w_built)
            elif style == "capture" and view.variant.position.get("played") is None:
                view._pick_target(0)  # no card of the hand picked first: refused
                said += _widget_words(view.w_feedback)
            kind, pos = view.variant.kind, view.variant.position
            if style in ("choice", "yesno"):
                for value in kind.choice_answers(pos):  # a wrong one among them
                    view.submit(value)
            for _try in range(3):
                view.submit("nothing")  # unreadable or wrong: a refusal or a wrong answer
                if style in ("plays", "stacks", "number"):
                    view.submit()
            said += _widget_words(view)
            view.show_hint()
            view.show_solution()
            said += _widget_words(view)
    builder = class_link_builder(samples)
    for value in [v for _label, v in builder.w_page.options][:2]:
        builder.w_page.value = value
        builder.make()
        said += _widget_words(builder)
    return [" ".join(s.split()) for s in said if s.strip()]


def test_the_exercise_page_and_the_class_link_builder_read_in_spanish_and_pseudo(
        tmp_path, monkeypatch):
    """Every exercise of every sample set on the practice page (its picture, its answer
    buttons, a card's signs, a stack, a wrong answer, a hint, the worked solution, the end
    of the set) and the teacher's link builder: English on a Spanish page before."""
    said = _pages_in_three(_exercise_page_words, tmp_path, monkeypatch)
    assert len(said[0]) == len(said[1]) == len(said[2]) > 100
    english = re.compile(r"\b(the|your|you|and|card|cards|check|hint|stack|deck|goal|"
                         r"exercise|solution|undo|hand|link|class|players?|short|page|"
                         r"trick|prizes?|played|plays)\b", re.I)
    # card notation (7H, 10S, JK, −3), the student's name, the game titles, addresses, the
    # explainer's LaTeX, what the test typed ('nothing'); the pseudo-locale also keeps each
    # set's own title and instructions (a teacher's text, given in en and es only)
    from mathcards.exercises import load_set
    from tests.browser.server import LESSONS

    sets = [load_set(path) for path in sorted((LESSONS / "exercises").glob("*.yaml"))]
    own = [text for s in sets
           for text in (s.title, s.instructions, *(e.prompt for e in s.exercises if e.prompt))]
    notation = ("|".join(re.escape(" ".join(t.split())) for t in own) + "|"
                r"(?<![\w])([−+-]?\d+[SHDC]?|[AJQK][SHDC]|JK|JOKER|[♠♥♦♣]|ana)(?![\w])|"
                r"Suns to Moons|Dice Stacks|Sums|Shoot the Moon|Moons and Planets|"
                r"https?://\S+|[\w./-]+\.ipynb\S*|\\\(.*?\\\)|'nothing'")
    _no_english_left(list(zip(*said, strict=True)), english, notation)


# --- the trick games' tables (widgets/tricks.py) ----------------------------------------
TRICK_TABLE_NOTATION = (r"Shoot the Moon|Moons and Planets|\b(?:10|[2-9AJQK])[♠♥♦♣]|"
                        r"[▲★●☾◆]\d+|\b\d+\b|\b[A-Z]{2,5}-[\w-]+|\b(Ana|Ben|Cy)\b")


def _shoot_the_moon_table_words(seed: int) -> list[str]:
    """Every visible and spoken text of a Shoot the Moon table (its board: the trick, the
    last trick, the chips and tricks, the dummy's cards; its statuses and buttons), one
    text per click through a seeded game against bots."""
    from mathcards.widgets import make_view
    from mathcards.widgets.table import GameTable
    from tests.widgets.helpers import click_something

    table = GameTable(make_view("shoot_the_moon"), seats=("human", "strong"), seed=seed,
                      bot_delay=0, save=False)
    rng = random.Random(seed)
    said = []
    for _click in range(25):
        said.append(" | ".join(visible_texts(table)))
        if table.state.is_over:
            break
        click_something(table, rng)
    return said


def _moons_and_planets_board_words(seed: int) -> list[str]:
    """The Moons and Planets board of every move of a seeded game of random bots: the
    trick, the last trick's prizes, the prizes, each seat's planet and moons, the cards
    in hand, the scores (the moves' own words are the engine's)."""
    from mathcards.bots import Bot
    from mathcards.games.registry import make_game
    from mathcards.widgets.tricks import MoonsAndPlanetsView

    view, names = MoonsAndPlanetsView(), ("Ana", "Ben", "Cy")
    game = make_game("moons_and_planets", num_players=3)
    state = game.new_game(seed=seed)
    bots = [Bot("moons_and_planets", "random", seed=seed + i) for i in range(3)]
    said = []
    while not state.is_over and len(said) < 80:
        said.append(view.board_html(state, state.observation(0), names)
                    + view.status(state, names))
        state = state.apply(bots[state.current_player].choose(state))
    return [re.sub(r"<[^>]+>", " ", s) for s in said]


@pytest.mark.parametrize("seed", [3, 8])
def test_the_trick_tables_read_in_spanish_and_the_pseudo_locale(seed):
    """The Shoot the Moon and Moons and Planets tables' own words (widgets/tricks.py: the
    trick and who played each card, the prizes, the planets and moons laid down, the chips
    and tricks, the scores) were English on a Spanish page."""
    import html as H

    said = [(H.unescape(en), H.unescape(es), H.unescape(ps)) for en, es, ps in
            _in_three(_shoot_the_moon_table_words, seed)
            + _in_three(_moons_and_planets_board_words, seed)]
    english = re.compile(r"\b(trick|played by|led|takes it|chips?|prizes?|planet|moons?|"
                         r"cards in hand|deck|scores|no card played yet|to lead|to play|"
                         r"putting cards down|in play order|face (up|down)|odd|together|"
                         r"dummy|discard)\b", re.I)
    assert any("Chips and tricks" in en for en, _es, _ps in said)
    assert any("planet and moons" in en for en, _es, _ps in said)
    _no_english_left(said, english, TRICK_TABLE_NOTATION)


# --- the lessons' checks (widgets/checks.py) --------------------------------------------
def _kind_words(variants) -> list[str]:
    """Everything an exercise kind says of ``variants`` in the page's language: its prompt,
    its choices, each answer's feedback and steps, its hints and its worked solution."""
    said: list[str] = []

    def result(r) -> None:
        said.append(r.headline)
        said.extend(str(getattr(s, "sentence", "") or getattr(s, "text", "")) for s in r.steps)

    for variant in variants:
        said.append(variant.prompt())
        choices = variant.kind.choices(variant.position)
        said.extend(choices)
        for answer in variant.kind.choice_answers(variant.position):
            result(variant.check(answer))
        said.extend(str(variant.hint(level).sentence) for level in (1, 2, 3))
        result(variant.solution())
    return sorted({s.rstrip(".") for s in said if s.strip()}, key=len, reverse=True)


CHIPS_QUESTION = "You took 3 tricks this round. How many chips do you earn for them?"
CHIPS_WHY = "3 is odd, so 1 chip"


def _lesson_check_words() -> list[str]:
    """Every visible text of the five lessons' checks, each answered with every choice (wrong
    and right), every hint asked and the answer shown; the prize check refused (no prize
    chosen), answered wrong and shown. Moons and Planets' exercise kinds are worded by their
    own module (not yet marked): their sentences are taken out, the check's own words stay."""
    from mathcards.widgets.checks import (
        Check,
        PrizeCheck,
        _position,
        capture_check,
        deck_value_check,
        judged,
        may_play_check,
        moon_check,
        planet_check,
        stack_choice_check,
        trick_winner_check,
    )

    def walk(widget, kind_words=()) -> str:
        text = " | ".join(visible_texts(widget))
        for words in kind_words:
            text = text.replace(words, " ")
        return text

    checks = [(may_play_check("G4 R5 B2", "G9", "R5"), ()),
              (may_play_check("G4 R5 BIG", "G9", "BIG"), ()),
              (trick_winner_check("R12 BIG G2 BIG"), ()),
              (trick_winner_check("LITTLE R2 G9 B9"), ()),
              # the lesson's own question and reason (lessons/es words them in Spanish)
              (Check(CHIPS_QUESTION, ["0", "1", "2"], lambda i: judged(i == 1, CHIPS_WHY)),
               (CHIPS_QUESTION, CHIPS_WHY)),
              (deck_value_check("7H -10S", "+6H", [-9, 3, 9, -3]), ()),
              (deck_value_check("4H -7S +9D", "JK", [-6, 18, 6, -18]), ()),
              (stack_choice_check((3, 5), ["9H 5S", "10S 5D 4C", "QD 4H", "7C AH AD"]), ()),
              (capture_check("9H", "2H 5S", "7H 7S 4H"), ()),
              (capture_check("QH", "JD", "AH AS KD"), ())]
    checks += [(planet_check(cards), _kind_words([_position("planet_or_not", cards=cards)]))
               for cards in ("9H 8H", "5C")]
    checks += [(moon_check("AS AH"), _kind_words([_position("moon_or_not", cards="AS AH")]))]
    said = []
    for check, kind_words in checks:
        said.append(walk(check.widget, kind_words))
        for i in range(len(check.options)):
            check.answer(i)
            said.append(walk(check.widget, kind_words))
        for _level in range(3):
            check.show_hint()
        check.show_solution()
        said.append(walk(check.widget, kind_words))
    prize = PrizeCheck("3S 2S 4H 8D")
    kind_words = _kind_words([*prize.cards, _position("which_prize", trick="3S 2S 4H 8D")])
    for places in ([0, 0, 0, 0], [1, 2, 3, 4]):
        prize.answer(places)
        said.append(walk(prize.widget, kind_words))
    prize.show_hint()
    prize.show_solution()
    said.append(walk(prize.widget, kind_words))
    return said


def test_the_lessons_checks_read_in_spanish_and_the_pseudo_locale():
    """The lessons' checks (widgets/checks.py: their questions, the Yes/No and card buttons,
    Hint and Show the answer, the feedback they word themselves, the pictures' captions and
    labels) were English on a Spanish lesson. The notebook's own question (the chips check)
    is the lesson's text (lessons/es words it in Spanish): it is left out here."""
    import html as H

    said = [(H.unescape(en), H.unescape(es), H.unescape(ps))
            for en, es, ps in _in_three(_lesson_check_words)]
    assert any("Choose a prize for every card first." in en for en, _es, _ps in said)
    english = re.compile(r"\b(hint|show the answer|opens after|your hand|led|yes|right|"
                         r"not quite|you play|your side|opponent|none of them|stacks? of|"
                         r"you rolled|the deck is worth|across|upright|turned|die|choose|"
                         r"check|prizes?|were played)\b", re.I)
    _no_english_left(said, english, r"\b(?:10|[2-9AJQK])[♠♥♦♣]|[▲★●☾◆]\d+|JOKER|\b\d+\b"
                                       r"|\b(?:nd|st|rd|th)\b|\\\(.*?\\\)")


# --- the lessons' guided hands and worked examples (widgets/lesson.py) -------------------
def _guided_hand_words(game_name: str, seed: int, players: int, **settings) -> list[str]:
    """Every visible text of a lesson's guided hand, one text per step, played to the end
    (or 120 steps): a card the rules refuse tried once, a card not in the hand once, the
    next page of moves opened when there is one, "Play the next hand" after each hand.
    Moons and Planets' engine words (its move buttons' labels, its events, the rule that
    refuses a card) are not marked yet: they are taken out, the guide's own words stay."""
    from mathcards.explain import refusal_words
    from mathcards.games.registry import make_game
    from mathcards.widgets.lesson import GuidedHand

    hand = GuidedHand(make_game(game_name, num_players=players, **settings), seed=seed)
    hand.MAX_MOVE_BUTTONS = 2  # pages of moves, with their Previous / More buttons and line
    rng = random.Random(seed)
    engine = game_name == "moons_and_planets"
    tried_refused = tried_missing = paged = False
    said: list[str] = []

    def walk() -> None:
        text = " | ".join(visible_texts(hand.widget))
        if engine:
            state = hand.state
            words = [b.description for b in hand.move_buttons()]
            words += [str(e.describe()) for e in state.events]
            words += [refusal_words(state, hand.view.card_play(state, c), counting=False)
                      for c in hand.hand() if not state.is_legal(hand.view.card_play(state, c))]
            for w in sorted(words, key=len, reverse=True):
                text = text.replace(w, " ")
        said.append(text)

    for _step in range(120):
        walk()
        if hand.state.is_over:
            break
        if hand.paused:
            hand.resume()
            continue
        legal = hand.legal_cards()
        refused = [c for c in hand.hand() if c not in legal]
        if legal and refused and not tried_refused:
            tried_refused = hand.try_card(refused[0]) or True
            walk()
        if legal and not tried_missing:
            missing = next(c for c in hand.state.game.new_game(seed=seed + 1).observation(1).hand
                           if c not in hand.hand())
            tried_missing = hand.try_card(missing) or True
            walk()
        if legal:
            hand.try_card(rng.choice(legal))
            continue
        pages = hand.moves_box.children[1:] if hand.moves_box.children else ()
        if pages and not paged:
            paged = True
            pages[0].children[-1].click()  # "More moves ▸"
            walk()
        buttons = hand.move_buttons()
        done = hand.done_button()
        (done if done is not None and rng.random() < 0.6 else rng.choice(buttons)).click()
    return said


def _worked_example_words() -> list[str]:
    """Every step of the arithmetic lessons' worked examples (Back / Next, the step, its
    counter, its pictures)."""
    from mathcards.widgets.lesson import dice_stacks_example, sums_example, suns_to_moons_example

    examples = [
        suns_to_moons_example([(7, 1), (10, -1), (6, 1), (6, 1), (4, -1), (13, -1), (13, 1),
                               (0, 0), (10, 1)], goal=2),
        dice_stacks_example([("6C 2H", (3, 5)), ("10S 2D", (3, 5)), ("QS 5H", (3, 4)),
                             ("8S KH 3D", (3, 4))]),
        sums_example("9H", "2H 5S", "7H 7S"), sums_example("9H", "2H", "4S")]
    said = []
    for example in examples:
        for i in range(len(example.steps)):
            example.go(i)
            said.append(" | ".join(visible_texts(example.widget)))
    return said


LESSON_NOTATION = (r"Shoot the Moon|Moons and Planets|\b(?:10|[2-9AJQK])[♠♥♦♣]|[▲★●☾◆◉◦]\d*|"
                   r"\b(?:10|[2-9AJQK])[SHDC]\b|\b[GRBP]\d+\b|\b(?:BIG|LITTLE)\b|"
                   r"JOKER|\b\d+\b|\\\(.*?\\\)|\$\$.*?\$\$")
GUIDE_ENGLISH = re.compile(r"\b(you|your|lead|led|trick|takes?|took|hand|play|next|guide|"
                           r"what happened|newest|waiting|thinking|finished|moves?|put|cards?|"
                           r"planet|moons?|prizes?|step|back|making|stack|capture|whole round|"
                           r"centre)\b", re.I)


@pytest.mark.parametrize(("game_name", "seed", "players", "settings"), [
    ("shoot_the_moon", 7, 3, {}), ("shoot_the_moon", 11, 4, {"partnerships": True}),
    ("moons_and_planets", 3, 3, {}), ("moons_and_planets", 21, 2, {})])
def test_a_guided_hand_reads_in_spanish_and_the_pseudo_locale(game_name, seed, players,
                                                              settings):
    """The lessons' guided hands (widgets/lesson.py: the guide's sentences, the hand's title,
    the status, the move buttons' tooltips and pages, the warnings, "Play the next hand",
    what happened) were English on a Spanish lesson."""
    import html as H

    said = [(H.unescape(en), H.unescape(es), H.unescape(ps)) for en, es, ps in
            _in_three(_guided_hand_words, game_name, seed, players, **settings)]
    assert any("Choose another card." in en for en, _es, _ps in said)
    assert any("is not in your hand" in en for en, _es, _ps in said)
    _no_english_left(said, GUIDE_ENGLISH, LESSON_NOTATION)


def test_the_worked_examples_read_in_spanish_and_the_pseudo_locale():
    """The arithmetic lessons' worked examples (their Back / Next, 'step 1 of 9', the
    centre card, the whole round, each stack, each capture) were English."""
    import html as H

    said = [(H.unescape(en), H.unescape(es), H.unescape(ps))
            for en, es, ps in _in_three(_worked_example_words)]
    _no_english_left(said, GUIDE_ENGLISH, LESSON_NOTATION)
