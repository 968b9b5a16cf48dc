"""Room sync as one service object (``mathcards.table_room.RoomSync``): a room hands its
table one object with ``join_room`` and leaving gives the solo one back; nothing else of the
room is set on the controller."""

from __future__ import annotations

from mathcards.rooms import RoomLink
from mathcards.table import TableController
from mathcards.table_room import RoomSync
from tests.test_rooms import _make_room, _page, _sync
from tests.test_table_controller import _view


def test_a_solo_table_holds_the_solo_room_sync():
    ctl = TableController(_view("sums"), bot_delay=0, save=False, resume="never")
    assert ctl.room == RoomSync() and ctl.room.solo and ctl.runs_bots()
    assert ctl.room_code == "" and ctl.publish is None


def test_a_room_joins_its_tables_with_one_object_and_leaving_gives_the_solo_one_back(tmp_path):
    db = tmp_path / "rooms.sqlite3"
    code = _make_room(db, "sums", 2)
    links: list[RoomLink] = [_page("sums", db, code, name)[0] for name in ("ana", "ben")]
    _sync(links)
    solo = [vars(link.ctl).copy() for link in links]
    links[0].start()
    _sync(links)
    for link, before in zip(links, solo, strict=True):
        ctl = link.ctl
        room = ctl.room
        assert not room.solo and room.code == code == ctl.room_code
        assert room.seat_labels == ctl.seat_names and ctl.seat_names[0].startswith("Ana")
        assert room.publish == link._publish and ctl.publish == link._publish
        assert ctl.runs_bots() == link._runs_bots()
        # the room's hooks live in its one object: none was set on the controller itself
        assert set(vars(ctl)) == set(before)
        assert not {"room_code", "seat_labels", "publish", "runs_bots"} & set(vars(ctl))
    ctl = links[1].ctl
    ctl.leave_room()
    assert ctl.room.solo and ctl.room_code == "" and ctl.publish is None and ctl.runs_bots()
    assert ctl.seat_names[1] == "Player 2 (you)"  # the room's names went with it
