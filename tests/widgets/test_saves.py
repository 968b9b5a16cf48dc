"""Save and resume, and deal codes (game + settings + seed in short text)."""

from __future__ import annotations

import asyncio
import time

import pytest

from mathcards import saves
from mathcards.games.registry import make_game
from mathcards.saves import DealCodeError, deal_code, read_deal_code
from mathcards.widgets.sums import sums_table
from mathcards.widgets.suns_to_moons import suns_to_moons_table
from mathcards.widgets.table import wait_for_bots
from tests.widgets.helpers import click_something, enabled_cards


@pytest.mark.parametrize("name, players, settings", [
    ("suns_to_moons", 2, {}),
    ("suns_to_moons", 5, {"target_score": 1}),
    ("sums", 3, {"piles": 6, "variant_return": True}),
    ("sums", 2, {"variant_draw_or_play": True, "decks": 2}),
    ("dice_stacks", 2, {}),
    ("dice_stacks", 5, {"decks": 1}),
])
@pytest.mark.parametrize("seed", [0, 7, 1_048_575, 123_456_789])
def test_deal_codes_round_trip(name, players, settings, seed):
    game = make_game(name, num_players=players, **settings)
    code = deal_code(game, seed)
    assert len(code) <= 30 and code == code.upper()
    again, again_seed = read_deal_code(code.lower())  # typed in lower case
    assert again == game and again_seed == seed


def test_deal_code_looks_like_the_example():
    code = deal_code(make_game("sums", num_players=3), 5)
    assert code.startswith("SUMS-3P-") and len(code.split("-")[-1]) == 5


@pytest.mark.parametrize("code, words", [
    ("", "empty"),
    ("HELLO", "too short"),
    ("CHESS-2P-0005X", "not a game"),
    ("SUMS-XP-0005X", "players"),
    ("SUMS-2P-Q9-0005+", "does not have"),
    ("SUMS-99P-0005+", "rules do not allow"),
    ("SUMS-2P-00U5;", "characters"),
])
def test_bad_deal_codes_give_one_line_errors(code, words):
    if code.endswith("+"):  # a well-formed code (right check letter) with bad settings
        code = code[:-1] + saves._check_letter(code[:-1])
    with pytest.raises(DealCodeError) as info:
        read_deal_code(code)
    message = str(info.value)
    assert words in message and "\n" not in message
    assert "looks like" in message or "type one like" in message


def test_a_typing_slip_is_caught_by_the_check_letter():
    code = deal_code(make_game("suns_to_moons", num_players=2), 4242)
    body, last = code[:-2], code[-2]
    slip = body + ("1" if last != "1" else "2") + code[-1]
    with pytest.raises(DealCodeError, match="typing slip"):
        read_deal_code(slip)


def test_deal_code_box_deals_the_same_start_for_everyone():
    code = deal_code(make_game("sums", num_players=2, piles=5), 99)
    first = sums_table(bot_delay=0, save=False)
    second = sums_table(bot_delay=0, save=False)
    for table in (first, second):
        table.w_code.value = code
        table.w_code_go.click()
    # the same start for everyone: face-up cards and the student's own hand
    assert first.state.sides == second.state.sides
    assert first.state.hands[0] == second.state.hands[0]
    # the bot's hand and the piles are each table's own secret (test_deal_privacy.py)
    assert first.state.hands[1] != second.state.hands[1]
    assert first.state.game.piles == 5 and first.state.seed == 99
    assert code in first.w_header.value


def test_deal_code_box_refuses_a_code_for_another_game():
    table = sums_table(bot_delay=0, save=False)
    before = table.state
    table.w_code.value = deal_code(make_game("suns_to_moons", num_players=2), 3)
    table.w_code_go.click()
    assert table.state is before and table.refused and "Suns to Moons" in table.message


def _one_move(table):
    import random

    rng = random.Random(0)
    start = len(table.state.history)
    while len(table.state.history) == start:
        click_something(table, rng)


def test_reopening_offers_to_resume_and_resumes(data_dir):
    table = suns_to_moons_table(seed=12, bot_delay=0)
    _one_move(table)
    moves = len(table.state.history)
    reopened = suns_to_moons_table(bot_delay=0)
    assert "saved" in reopened.w_banner.value and f"{moves} moves" in reopened.w_banner.value
    assert "mc-hide" in reopened.w_body._dom_classes  # nothing moves until the answer
    reopened.w_resume.click()
    assert reopened.state == table.state
    assert "mc-hide" not in reopened.w_body._dom_classes
    assert enabled_cards(reopened)


def test_start_new_keeps_playing_a_fresh_deal(data_dir):
    table = suns_to_moons_table(seed=12, bot_delay=0)
    _one_move(table)
    reopened = suns_to_moons_table(seed=13, bot_delay=0)
    reopened.w_discard.click()
    assert reopened.state.seed == 13 and len(reopened.state.history) == 0


def test_a_corrupted_save_gives_one_line_and_a_fresh_game_and_is_kept(data_dir):
    table = suns_to_moons_table(seed=12, bot_delay=0)
    _one_move(table)
    path = data_dir / "tables" / "suns_to_moons.json"
    path.write_text(path.read_text()[:-40] + "garbage")
    reopened = suns_to_moons_table(seed=3, bot_delay=0)
    assert reopened.message.startswith("Your saved game could not be opened")
    assert "\n" not in reopened.message
    assert reopened.state.seed == 3 and not reopened.state.history
    kept = list((data_dir / "tables").glob("suns_to_moons.broken-*.json"))
    assert len(kept) == 1 and kept[0].read_text().endswith("garbage")
    assert not path.exists()


def test_a_save_with_an_illegal_move_is_set_aside(data_dir):
    table = sums_table(seed=2, bot_delay=0)
    _one_move(table)
    path = data_dir / "tables" / "sums.json"
    import re

    text = path.read_text()
    damaged = re.sub(r'("pile":\s*)\d+', r"\g<1>17", text, count=1)  # no pile 18
    assert damaged != text
    path.write_text(damaged)
    reopened = sums_table(bot_delay=0)
    assert "could not be opened" in reopened.message
    assert list((data_dir / "tables").glob("sums.broken-*.json"))


def test_a_finished_game_is_not_offered(data_dir):
    from tests.widgets.helpers import play_to_end

    table = suns_to_moons_table(target_score=1, seed=2, bot_delay=0)
    play_to_end(table, 2)
    assert not (data_dir / "tables" / "suns_to_moons.json").exists()
    again = suns_to_moons_table(bot_delay=0)
    assert again.w_banner.value == ""


def test_bots_pause_with_a_thread_timer_outside_a_kernel():
    table = suns_to_moons_table(seed=5, bot_delay=0.05, save=False)
    _one_move(table)
    assert table.state.current_player == 1  # the bot has not moved yet: its pause
    wait_for_bots(table, timeout=10)
    assert table.state.current_player == 0
    assert any("(bot) plays" in h or "(bot)" in h for h in table.history[-3:])


def test_bots_pause_on_the_running_event_loop_without_blocking_it():
    """In a kernel the bot waits with loop.call_later: the loop keeps handling messages."""

    async def scenario():
        table = suns_to_moons_table(seed=5, bot_delay=0.1, save=False)
        _one_move(table)
        assert table.state.current_player == 1
        ticks = 0
        start = time.monotonic()
        while table.state.current_player != 0 and time.monotonic() - start < 10:
            await asyncio.sleep(0.01)  # other messages are served meanwhile
            ticks += 1
        assert table.state.current_player == 0
        assert ticks >= 5  # the loop was free during the pause
        return time.monotonic() - start

    waited = asyncio.run(scenario())
    assert waited >= 0.09


def test_a_new_game_cancels_the_old_games_bot_timer():
    table = suns_to_moons_table(seed=5, bot_delay=0.05, save=False)
    _one_move(table)
    table.w_new.click()
    table.w_new.click()  # a game in progress: the second click confirms
    fresh = table.state
    time.sleep(0.2)
    assert table.state is fresh  # the old timer did not move in the new game


def test_saves_use_the_data_dir_atomically(data_dir):
    table = sums_table(seed=1, bot_delay=0)
    _one_move(table)
    files = sorted(p.name for p in (data_dir / "tables").iterdir())
    assert files == ["sums.json"]
    loaded, message = saves.load_table("sums")
    assert message == "" and loaded.state == table.state and loaded.seats == table.seats


# --- two tables, one slot (issue 11 item 7) ------------------------------------------


def _writer(data_dir: str, seed: int, rounds: int, go) -> None:
    """Another page's kernel: saves its own game into the shared guest slot, again and again."""
    import os as _os

    _os.environ["MATHCARDS_DATA_DIR"] = data_dir
    from mathcards import saves as _saves
    from mathcards.bots import Bot
    from mathcards.games.registry import make_game as _make

    state = _make("sums", num_players=2).new_game(seed)
    bot = Bot("sums", "random", seed=seed)
    go.wait(60)
    for _ in range(rounds):
        if state.is_over:
            state = state.game.new_game(seed)
        state = state.apply(bot.choose(state))
        _saves.save_table(state, ("human", "random"), "")


def test_two_tables_saving_one_slot_never_leave_half_a_save(data_dir):
    """Two kernels save the same slot while a third page reads it: every read is a whole
    save, nothing is set aside as broken, no temp file is left behind."""
    import multiprocessing

    saves.tables_dir()
    ctx = multiprocessing.get_context("spawn")
    go = ctx.Event()
    writers = [ctx.Process(target=_writer, args=(str(data_dir), s, 400, go)) for s in (1, 2)]
    for w in writers:
        w.start()
    go.set()
    reads = 0
    try:
        while any(w.is_alive() for w in writers) or reads == 0:
            loaded, message = saves.load_table("sums")
            assert message == "", message
            if loaded is not None:
                reads += 1
                assert loaded.seats == ("human", "random")
    finally:
        for w in writers:
            w.join(60)
    assert [w.exitcode for w in writers] == [0, 0]
    assert reads > 0
    names = sorted(p.name for p in (data_dir / "tables").iterdir())
    assert names == ["sums.json"], names


def test_a_failed_save_leaves_the_old_save_and_no_temp_file(data_dir, monkeypatch):
    table = sums_table(seed=1, bot_delay=0)
    _one_move(table)
    before = (data_dir / "tables" / "sums.json").read_bytes()

    def full_disk(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(saves.os, "fsync", full_disk)
    with pytest.raises(OSError):
        saves.save_table(table.state, table.seats, "")
    assert (data_dir / "tables" / "sums.json").read_bytes() == before
    assert sorted(p.name for p in (data_dir / "tables").iterdir()) == ["sums.json"]


def test_a_save_error_on_the_page_names_no_server_path(data_dir, monkeypatch):
    table = sums_table(seed=1, bot_delay=0)

    def refuse(*_args, **_kwargs):
        raise PermissionError(13, "Permission denied", str(data_dir / "tables" / "x.tmp"))

    monkeypatch.setattr(saves.tempfile, "mkstemp", refuse)
    _one_move(table)
    assert table.message.startswith("Could not save the game (Permission denied)")
    assert str(data_dir) not in table.message and "/" not in table.message


def test_a_broken_save_replaced_by_a_good_one_meanwhile_is_not_set_aside(data_dir):
    """A reader that read a broken file moves it aside only if it is still that file."""
    table = sums_table(seed=1, bot_delay=0)
    _one_move(table)
    path = data_dir / "tables" / "sums.json"
    good = path.read_bytes()
    path.write_text('{"format": "mathcards-tab', encoding="utf-8")  # half a save
    with open(path, "rb") as f:
        broken_id = saves.os.fstat(f.fileno()).st_ino
    # another table saves a good game over it before the reader sets it aside
    fresh = path.with_name("fresh.json")
    fresh.write_bytes(good)
    saves.os.replace(fresh, path)
    assert saves._set_aside(path, broken_id) is None
    assert path.read_bytes() == good
    assert not list((data_dir / "tables").glob("*.broken-*"))
