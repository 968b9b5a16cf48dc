"""The teacher's dashboard without a browser: a student x exercise grid over a real
SQLite progress file (wrong answers, sign slips, hints), Refresh, and the class link."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from mathcards import saves
from mathcards.errors import MathCardsError
from mathcards.exercises import ProgressStore, load_set_text
from mathcards.exercises.exercise_grid import progress_grid
from tests.exercises.test_exercise_grid import FIVE
from tests.exercises.test_progress import SET
from tests.widgets.helpers import row_head


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
    row = html.split(row_head(student), 1)[1]
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
    assert "\u22123♥" in ana and "sign slip" in ana and "hints: 2" in ana
    assert "✔ solved" in ana and "not tried" in ana  # exercise 2 untried
    assert "☾12" in ben and "hints: 0" in ben and "not tried" in ben
    assert "2 students" in view.value and "3 attempts" in view.value
    # a new attempt by a third student arrives; the page shows it only after Refresh
    store = ProgressStore(class_db)
    cy = warm_up.show("cy", store=store)
    cy.w_hint_button.click()
    cy.submit(["+9D"])
    assert row_head("cy") not in view.value
    view.w_refresh.click()
    assert "+9♦" in cell_text(view.value, "cy") and "hints: 1" in cell_text(view.value, "cy")
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


# --- issue 28 item 3: a dashboard to trust -----------------------------------------------------


@pytest.fixture
def lesson(tmp_path):
    """A set file in the lessons' folder, and a class: ana opened the worked solution and
    typed its answer, ben was right at the first try, nobody tried exercise 3."""
    folder = tmp_path / "exercises"
    folder.mkdir()
    (folder / "integers_7b.yaml").write_text(FIVE, encoding="utf-8")
    exercise_set = load_set_text(FIVE, name="integers-7b")
    path = tmp_path / "class.sqlite3"
    store = ProgressStore(path)
    ana = exercise_set.show("ana", store=store)
    ana.submit(["-3H"])
    ana.submit(["+4S"])
    ana.show_solution()
    ana.submit(["+3H"])
    ben = exercise_set.show("ben", store=store)
    ben.submit(["+3H"])
    ben.go(2)
    ben.submit("G12")
    store.close()
    return folder, path, exercise_set


def test_the_grid_shows_the_solution_opened_the_first_tries_and_the_untried(lesson):
    from mathcards.widgets.exercises import dashboard

    folder, path, _set = lesson
    view = dashboard(path, folder=folder)
    ana, ben = cell_text(view.value, "ana"), cell_text(view.value, "ben")
    assert "✔ solved" not in ana and "worked solution opened" in ana
    assert "answered with the solution" in ana
    assert "✔ right at the first try" in ben
    assert "2 of 5 tried" in ben and "1 of 5 tried" in ana  # 3 to 5: nobody tried them
    assert ana.count("not tried") == 4 and ben.count("not tried") == 3
    assert "−3♥" in ana and "+4♠" in ana and "-3H" not in ana  # as the student saw them
    # labels whole, never cut mid-word; the names column stays when the grid scrolls
    assert "3. " in view.w_grid.value and "position: sticky" in view.w_grid.value


def test_the_set_filter_defaults_to_the_newest_and_shows_one_set(lesson, tmp_path):
    from mathcards.widgets.exercises import dashboard

    folder, path, _set = lesson
    store = ProgressStore(path)
    older = load_set_text(SET, name="warm-up")
    older.session("cy", store=store).check(1, ["+3H"])  # the newest attempt: warm-up
    view = dashboard(path, folder=folder)
    assert [v for _t, v in view.w_set.options] == ["warm-up", "integers-7b"]
    assert view.w_set.value == "warm-up"
    assert row_head("cy") in view.w_grid.value
    assert row_head("ana") not in view.w_grid.value
    view.w_set.value = "integers-7b"
    assert row_head("ana") in view.w_grid.value
    assert row_head("cy") not in view.w_grid.value
    assert "students" in view.w_missed.value  # "1 of 2 students", a unit


def test_the_download_csv_button_gives_the_grid_as_a_file(lesson):
    import base64
    import csv
    import io

    from mathcards.widgets.exercises import dashboard

    folder, path, _set = lesson
    view = dashboard(path, folder=folder)
    assert "data:" not in view.w_grid_download.w_out.value  # made only when pressed
    view.w_grid_download.w_button.click()
    link = view.w_grid_download.w_out.value
    data = link.split("base64,", 1)[1].split('"', 1)[0]
    rows = list(csv.DictReader(io.StringIO(base64.b64decode(data).decode("utf-8"))))
    ana = [r for r in rows if r["student"] == "ana"]
    assert [(r["number"], r["tried"], r["worked solution opened"]) for r in ana] == [
        ("1", "yes", "yes")] + [(str(n), "no", "no") for n in range(2, 6)]
    ben = [r for r in rows if r["student"] == "ben"]
    assert ben[0]["right at first try"] == "yes"


def test_it_refreshes_by_itself_on_the_event_loop_reading_only_new_attempts(lesson):
    import asyncio

    from mathcards.widgets.exercises import DashboardView

    folder, path, exercise_set = lesson

    async def lesson_goes_on():
        DashboardView.refresh_every = 0.05
        try:
            view = DashboardView(path, folder=folder)
            assert "updated at" in view.w_updated.value
            assert row_head("dee") not in view.w_grid.value
            exercise_set.session("dee", store=ProgressStore(path)).check(1, ["+3H"])
            await asyncio.sleep(0.4)  # no click: the page reads by itself
            shown = view.w_grid.value
            view.close()
            return shown
        finally:
            DashboardView.refresh_every = 20.0

    shown = asyncio.run(lesson_goes_on())
    assert row_head("dee") in shown


def test_a_set_published_on_the_server_shows_its_untried_exercises(tmp_path, monkeypatch):
    """A set the teacher published on *Write a set* lives in the server's sets folder, not
    beside the samples: the grid still has every exercise of it, an untried one as such
    (before, the set was not found and its columns were only the exercises tried)."""
    from mathcards.exercises.store import SetStore
    from mathcards.widgets.exercises import dashboard

    monkeypatch.setenv("MATHCARDS_SETS", str(tmp_path / "sets"))
    samples = tmp_path / "exercises"
    samples.mkdir()
    SetStore().publish(FIVE.replace("id: integers-7b", "id: integers_7b"))
    exercise_set = load_set_text(FIVE.replace("id: integers-7b", "id: integers_7b"))
    path = tmp_path / "class.sqlite3"
    store = ProgressStore(path)
    exercise_set.session("ana", store=store).check(1, ["+3H"])
    store.close()
    view = dashboard(path, folder=samples)
    ana = cell_text(view.value, "ana")
    assert "1 of 5 tried" in ana and ana.count("not tried") == 4


def test_the_skill_grid_counts_questions_with_their_tries_and_its_csvs_say_them(tmp_path):
    """Issue 37 item 5, over a real SQLite file written by a real table: a Suns to Moons
    question answered wrong then right, a sign the ±10 bound refused, a question whose result
    was seen. The dashboard's grid counts questions (not answers): right at the first try,
    right in the end, seen, the refusal apart; answers.csv has each try's number and the
    "seen" flag; skill-grid.csv the same figures as the grid."""
    import base64
    import csv
    import io

    from mathcards.asking import COUNT, SHOW
    from mathcards.games.suns_to_moons import Play, SunsToMoons, within_bound
    from mathcards.table import TableController
    from mathcards.widgets.exercises import dashboard
    from mathcards.widgets.suns_to_moons import SunsToMoonsView

    path = tmp_path / "class" / "ana" / "progress.sqlite3"
    path.parent.mkdir(parents=True)
    store = ProgressStore(path)
    for seed in range(1, 400):  # a deal with a sign the bound refuses
        ctl = TableController(SunsToMoonsView(), SunsToMoons(num_players=2), seed=seed,
                              seats=("human", "strong"), bot_delay=0, save=False,
                              level=COUNT, bot_seed=seed)
        state = ctl.state
        hand = state.observation(state.current_player).hand
        refused = [Play(c, s, c.rank) for c in hand if not c.is_joker and c.rank != 1
                   for s in (1, -1) if not state.is_legal(Play(c, s, c.rank))
                   and not within_bound(state.deck_value + s * c.rank)]
        if refused:
            break
    ctl.asking.student = "ana"
    ctl.asking.on_answer = store.record_answer
    assert not ctl.attempt(ctl.play, refused[0])  # a refusal, with its rule
    skill_of: dict[str, str] = {}
    play = next(a for a in state.legal_actions() if isinstance(a, Play) and not a.is_joker)
    ctl.play(play)
    q = ctl.asking.pending.question
    skill_of["asked"] = q.skill
    ctl.answer(str(q.expected + 1))  # wrong, then right: one question, two tries
    ctl.answer(str(q.expected))
    assert ctl.acting_human() and ctl.asking.pending is None  # the bot moved at once
    again = next(a for a in ctl.state.legal_actions()
                 if isinstance(a, Play) and not a.is_joker)
    ctl.play(again)
    seen_skill = ctl.asking.pending.question.skill
    ctl.set_level(SHOW)  # its result shown: seen
    store.close()

    view = dashboard(tmp_path / "class", folder=tmp_path)
    grid = view.w_content.value
    assert "right at the first try" in grid and "right in the end" in grid
    assert "seen before the answer" in grid and "move the rules refused" in grid
    view.w_download.make()
    files = {}
    for link in view.w_download.w_out.value.split("<a ")[1:]:
        name = link.split('download="', 1)[1].split('"', 1)[0]
        data = link.split("base64,", 1)[1].split('"', 1)[0]
        files[name] = list(csv.DictReader(io.StringIO(base64.b64decode(data).decode())))
    tries = [(r["skill"], r["attempt"], r["right"], r["seen"], r["rule"] != "")
             for r in files["answers.csv"]]
    assert tries == [("bound", "1", "no", "no", True),
                     (skill_of["asked"], "1", "no", "no", False),
                     (skill_of["asked"], "2", "yes", "no", False),
                     (seen_skill, "1", "no", "yes", False)]
    rows = {r["skill"]: r for r in files["skill-grid.csv"]}
    assert rows["bound"]["questions"] == "0" and rows["bound"]["refusals"] == "1"
    if seen_skill != skill_of["asked"]:
        asked = rows[skill_of["asked"]]
        assert (asked["questions"], asked["first_try_right"], asked["right"],
                asked["seen"]) == ("1", "0", "1", "0")
    total = sum(int(r["questions"]) for r in rows.values())
    assert total == 2 and sum(int(r["seen"]) for r in rows.values()) == 1
