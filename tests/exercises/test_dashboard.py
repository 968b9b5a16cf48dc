"""The teacher's dashboard without a browser: a student x exercise grid over a real
SQLite progress file (wrong answers, sign slips, hints), Refresh, and the class link."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from mathcards import saves
from mathcards.errors import MathCardsError
from mathcards.exercises import ProgressStore, load_set_text
from mathcards.exercises.progress import progress_grid
from tests.exercises.test_progress import SET


@pytest.fixture
def warm_up():
    return load_set_text(SET, name="warm-up")


@pytest.fixture
def class_db(tmp_path, warm_up):
    """Two students answered through the practice view (hint button, answers)."""
    path = tmp_path / "class.sqlite3"
    store = ProgressStore(path)
    ana = warm_up.show("ana", store=store)
    ana.w_hint_button.click()
    ana.w_hint_button.click()  # two hints, then a sign slip, then the right play
    ana.submit(["-3H"])
    ana.submit(["+3H"])
    ben = warm_up.show("ben", store=store)
    ben.go(2)
    ben.submit("G12")  # wrong, no hint
    store.close()
    return path


def cell_text(html: str, student: str) -> str:
    """The student's row of the student x exercise grid (the skill grid comes before it)."""
    html = html.split('aria-label="students by exercises"', 1)[1]
    row = html.split(f'<th scope="row">{student}</th>', 1)[1]
    return row.split("</tr>", 1)[0]


def test_the_hint_button_is_recorded_with_the_next_answer(class_db):
    attempts = ProgressStore(class_db).attempts(student="ana")
    assert [(a.answer, a.correct, a.hints_used) for a in attempts] == [
        ("-3H", False, 2), ("+3H", True, 2)]


def test_the_grid_has_each_students_wrong_answers_and_hints(class_db):
    grid = progress_grid(ProgressStore(class_db).attempts())
    assert grid.students == ("ana", "ben")
    assert [(c.number, c.kind) for c in grid.columns] == [(1, "reach_goal"),
                                                          (2, "who_takes_trick")]
    ana = grid.cell("ana", 0)
    assert (ana.solved, ana.attempts, ana.wrong_answers, ana.right_answer, ana.hints_used) == (
        True, 2, ("-3H",), "+3H", 2)
    assert ana.sign_slips == ("-3H",)
    assert grid.cell("ana", 1) is None
    ben = grid.cell("ben", 1)
    assert (ben.solved, ben.wrong_answers, ben.hints_used, ben.result) == (
        False, ("G12",), 0, "not solved yet")
    assert ben.sign_slips == ()  # not solved yet: nothing to compare with


def test_the_dashboard_shows_the_grid_and_refresh_reads_new_attempts(class_db, warm_up):
    from mathcards.widgets.exercises import dashboard

    view = dashboard(class_db)
    ana, ben = cell_text(view.value, "ana"), cell_text(view.value, "ben")
    assert "\u22123H" in ana and "sign slip" in ana and "hints: 2" in ana
    assert "✔ solved" in ana and "not tried" in ana  # exercise 2 untried
    assert "G12" in ben and "hints: 0" in ben and "not tried" in ben
    assert "2 students" in view.value and "3 attempts" in view.value
    # a new attempt by a third student arrives; the page shows it only after Refresh
    store = ProgressStore(class_db)
    cy = warm_up.show("cy", store=store)
    cy.w_hint_button.click()
    cy.submit(["+9D"])
    assert '<th scope="row">cy</th>' not in view.value
    view.w_refresh.click()
    assert "+9D" in cell_text(view.value, "cy") and "hints: 1" in cell_text(view.value, "cy")
    assert "3 students" in view.value and "4 attempts" in view.value


def test_the_class_link_is_what_the_pages_read(tmp_path):
    from mathcards.widgets import query_settings
    from mathcards.widgets.exercises import class_link, class_link_builder

    (tmp_path / "fractions_warm_up.yaml").write_text(SET)
    assert class_link("set:fractions_warm_up", folder=tmp_path) == (
        "practice.ipynb?set=fractions_warm_up")
    with pytest.raises(MathCardsError, match="no exercise set"):
        class_link("set:../secret", folder=tmp_path)
    link = class_link("play:suns_to_moons", players=3, short=True, seed=1234)
    page, query = link.split("?")
    assert page == "play_suns_to_moons.ipynb"
    game, seed = saves.read_deal_code(query_settings(query)["deal"])
    assert (game.name, game.num_players, game.target_score, seed) == (
        "suns_to_moons", 3, 3, 1234)
    long = class_link("play:suns_to_moons", players=2, seed=1234)
    assert saves.read_deal_code(parse_qs(urlsplit(long).query)["deal"][0])[0].target_score == 10
    given = saves.deal_code(game, 99)
    assert class_link("play:suns_to_moons", deal=given.lower()) == (
        f"play_suns_to_moons.ipynb?deal={given}&level=count")
    with pytest.raises(MathCardsError, match="not Sums"):
        class_link("play:sums", deal=given)
    builder = class_link_builder(tmp_path)
    builder.w_page.value = "play:shoot_the_moon"
    assert builder.w_short.description == "Short game (first to 5)"  # chips: players start at 2
    builder.w_page.value = "play:suns_to_moons"
    assert builder.w_short.description == "Short game (first to 3)"
    builder.w_page.value = "play:sums"
    assert builder.w_short.disabled  # Sums has no shorter game
    builder.w_deal.value = "SUMS-2P-XXXX"
    builder.make()
    assert "mc-refused" in builder.w_out.value and "deal code" in builder.w_out.value
    builder.w_deal.value = ""
    builder.make()
    assert 'href="play_sums.ipynb?deal=SUMS-2P-' in builder.w_out.value


def test_the_class_link_sets_the_level_of_help_and_can_fix_it(tmp_path):
    """Issue 25: the link builder sets the level of help for the class, and can fix it."""
    from mathcards.widgets.exercises import class_link, class_link_builder

    (tmp_path / "warm_up.yaml").write_text(SET)
    for level in ("show", "count", "count_no_hints"):
        query = parse_qs(urlsplit(class_link("play:sums", seed=5, level=level)).query)
        assert query["level"] == [level] and "fixed" not in query
    fixed = parse_qs(urlsplit(class_link("play:sums", seed=5, level="count_no_hints",
                                         fixed=True)).query)
    assert (fixed["level"], fixed["fixed"]) == (["count_no_hints"], ["1"])
    assert class_link("set:warm_up", folder=tmp_path, level="show") == (
        "practice.ipynb?set=warm_up&level=show")
    assert class_link("set:warm_up", folder=tmp_path, fixed=True) == (
        "practice.ipynb?set=warm_up")  # a practice page has no help to step down to
    with pytest.raises(MathCardsError, match="no level of help 'all'"):
        class_link("play:sums", level="all")
    builder = class_link_builder(tmp_path)
    assert builder.w_level.value == "count"
    assert [label for label, _key in builder.w_level.options] == [
        "Show me the sums", "I count", "I count, no hints"]
    builder.w_page.value = "play:sums"
    builder.w_level.value = "show"
    builder.w_fixed.value = True
    builder.make()
    assert "&amp;level=show&amp;fixed=1" in builder.w_out.value
    builder.w_page.value = "set:warm_up"
    assert builder.w_fixed.disabled
