"""The catalogs and the choice of language (issue 41, its groundwork): the committed
catalogs are exactly what ``make translations`` makes, Spanish is complete, every plural
form compiles, translations keep their placeholders, and a page's language is the one
asked for, then remembered, then the browser's."""

from __future__ import annotations

import gettext
import re
import threading

import pytest

from mathcards import i18n
from mathcards import i18n_catalogs as C
from mathcards.cards import parse_card


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
                     r"player|nobody|passe[sd]|removing|adding|subtracting|used)\b", re.I)


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


def _in_three_languages(game_id: str, seed: int, names: tuple[str, ...], **settings):
    english = _playout_words(game_id, seed, names, **settings)
    with i18n.using("es"):
        spanish = _playout_words(game_id, seed, names, **settings)
    with i18n.using("qps"):
        pseudo = _playout_words(game_id, seed, names, **settings)
    assert len(english) == len(spanish) == len(pseudo) > 5
    return zip(english, spanish, pseudo, strict=True)


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


def _sums_refusals(seed: int) -> list[str]:
    """Why Sums refuses each of a few moves, at every position of a seeded game."""
    from mathcards.bots import Bot
    from mathcards.cards import Card
    from mathcards.games.registry import make_game
    from mathcards.games.sums import actions as A

    game = make_game("sums", num_players=2, variant_return=True)
    state = game.new_game(seed=seed)
    bots = [Bot("sums", "random", seed=seed * 7 + i) for i in range(2)]
    said: list[str] = []
    while not state.is_over:
        p = state.actor
        hand, side = state.hands[p], state.sides[p]
        other = state.sides[1 - p]
        mine = side[0] if side else Card("S", 2)
        probes = [A.Draw(0), A.Draw(9), A.Play(Card("S", 1)) if Card("S", 1) not in hand
                  else A.Play(Card("H", 1)), A.Capture(other[0] if other else Card("S", 2),
                                                       1 - p),
                  A.Capture(mine, p), A.Counter(hand[0] if hand else Card("S", 2)),
                  A.Decline(), A.TakeBack(mine), A.EndGame()]
        legal = state.legal_actions()
        said += [state.why_illegal(a) for a in probes if a not in legal]
        state = state.apply(bots[state.current_player].choose(state))
    return said


@pytest.mark.parametrize("seed", range(12))
def test_sums_says_every_event_and_refusal_in_spanish_and_in_the_pseudo_locale(seed):
    names = ("Ana", "", "Zoe")
    for en, es, ps in _in_three_languages("sums", seed, names, variant_return=True):
        _check_words(en, es, ps, SUMS_ENGLISH)
    english = _sums_refusals(seed)
    with i18n.using("es"):
        spanish = _sums_refusals(seed)
    with i18n.using("qps"):
        pseudo = _sums_refusals(seed)
    assert len(english) == len(spanish) == len(pseudo) > 5
    for en, es, ps in zip(english, spanish, pseudo, strict=True):
        assert SUMS_ENGLISH.search(en) and not SUMS_ENGLISH.search(es), (en, es)
        plain = re.sub(r"\b(?:10|[2-9AJQK])[♠♥♦♣]|JK", "", ps)
        assert not re.search(r"\b[A-Za-z]{2,}\b", plain), (en, ps)


DICE_ENGLISH = re.compile(ENGLISH.pattern[:-3] + r"|rolled|goes first|first|drew|laid|ran out|"
                          r"ended|hand|stock|over|stacks?|dice|draw(ing)?|roll|rest|whole|number|"
                          r"double|halve|Kings?|lone|makes|none|not|own)\b", re.I)


def _dice_stacks_refusals(seed: int) -> list[str]:
    """Why Dice Stacks refuses each of a few moves (and the stacks of every pair and triple
    of the first cards in hand) at every position of a seeded game."""
    from itertools import combinations

    from mathcards.bots import Bot
    from mathcards.cards import Card
    from mathcards.games import dice_stacks as D
    from mathcards.games.registry import make_game

    game = make_game("dice_stacks", num_players=2)
    state = game.new_game(seed=seed)
    bots = [Bot("dice_stacks", "random", seed=seed * 7 + i) for i in range(2)]
    said: list[str] = []
    while not state.is_over:
        hand = state.hands[state.turn][:6]
        probes = [D.Roll(), D.Draw(1), D.Draw(9), D.DrawRest(1), D.StopDrawing(),
                  D.LayStack(()), D.LayStack((Card("S", 1),) * 9), D.EndTurn()]
        probes += [D.LayStack(c) for k in (1, 2, 3) for c in combinations(hand, k)]
        legal = state.legal_actions()
        said += [state.why_illegal(a) for a in probes if a not in legal]
        state = state.apply(bots[state.current_player].choose(state))
    return said


@pytest.mark.parametrize("seed", range(6))
def test_dice_stacks_says_every_event_and_refusal_in_spanish_and_in_the_pseudo_locale(seed):
    names = ("Ana", "", "Zoe")
    for en, es, ps in _in_three_languages("dice_stacks", seed, names):
        _check_words(en, es, ps, DICE_ENGLISH)
    english = _dice_stacks_refusals(seed)
    with i18n.using("es"):
        spanish = _dice_stacks_refusals(seed)
    with i18n.using("qps"):
        pseudo = _dice_stacks_refusals(seed)
    assert len(english) == len(spanish) == len(pseudo) > 5
    assert any("÷ 2" in en for en in english)  # the Kings' halving words are among them
    for en, es, ps in zip(english, spanish, pseudo, strict=True):
        assert DICE_ENGLISH.search(en) and not DICE_ENGLISH.search(es), (en, es)
        plain = re.sub(r"\b(?:10|[2-9AJQK])[♠♥♦♣]|JK|A-Q", "", ps)
        assert not re.search(r"\b[A-Za-z]{2,}\b", plain), (en, ps)


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
    names = ("Ana", "")
    english = _explained(game_id, seed, names, **settings)
    with i18n.using("es"):
        spanish = _explained(game_id, seed, names, **settings)
    with i18n.using("qps"):
        pseudo = _explained(game_id, seed, names, **settings)
    assert len(english) == len(spanish) == len(pseudo) > 5
    for en, es, ps in zip(english, spanish, pseudo, strict=True):
        assert EXPLAIN_ENGLISH.search(en), en  # the check can fail: it finds the English
        assert not EXPLAIN_ENGLISH.search(es), (en, es)
        plain = re.sub(r"Ana|\b(?:10|[2-9AJQK])[♠♥♦♣]|JK", "", ps)
        assert not re.search(r"\b[A-Za-z]{2,}\b", plain), (en, ps)
        # the arithmetic is the same: every number and sign, in any order
        assert sorted(re.findall(r"[−+×÷½±=]|\d+", es)) == sorted(
            re.findall(r"[−+×÷½±=]|\d+", en)), (en, es)


# --- the refusals every game shares (mathcards/games/base.py) --------------------------
@pytest.mark.parametrize("game_id", ["suns_to_moons", "dice_stacks", "sums"])
def test_the_shared_refusals_read_in_spanish(game_id):
    from mathcards.bots import Bot
    from mathcards.games.registry import make_game

    game = make_game(game_id, num_players=2)
    state = game.new_game(seed=3)
    english = [state.reason_refused(object())]  # not a move of this game
    with i18n.using("es"):
        spanish = [state.reason_refused(object())]
    bots = [Bot(game_id, "random", seed=i) for i in range(2)]
    while not state.is_over:
        state = state.apply(bots[state.current_player].choose(state))
    english.append(state.reason_refused(object()))
    with i18n.using("es"):
        spanish.append(state.reason_refused(object()))
    assert english == [f"it is not a {game.title} move", "the game is over"]
    assert spanish == [f"no es una jugada de {game.title}", "la partida ha terminado"]
