"""Voilà's process parses kernel messages' header dates with ``datetime.fromisoformat``
(``mathcards.widgets.server._fast_dates``): the same values as jupyter_client's own
``parse_date`` (dateutil), and its debug records that no handler prints are not built."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jupyter_client import jsonutil, session

from mathcards.widgets import server

server._fast_dates()
FAST = session.extract_dates


def _same(text: str) -> None:
    slow, fast = jsonutil.parse_date(text), FAST.parse_date(text)  # type: ignore[attr-defined]
    assert slow == fast, text
    assert type(slow) is type(fast), text
    if isinstance(slow, datetime):
        assert slow.isoformat() == fast.isoformat(), text
        assert slow.utcoffset() == fast.utcoffset(), text


@pytest.mark.parametrize("text", [
    "2026-11-27T10:11:12.123456Z",   # what ipykernel sends
    "2026-11-27T10:11:12Z",
    "2026-11-27T10:11:12.1Z",
    "2026-11-27T10:11:12.12345+02:00",
    "2026-11-27T10:11:12-0530",
    "2026-11-27T10:11:12.000001+00:00",
    "2026-11-27T10:11:12+14:00",
    "hello", "", "2026-11-27", "2026-11-27 10:11:12Z", "2026-11-27T10:11:12.1234567Z",
])
def test_a_date_parses_as_jupyter_client_parses_it(text):
    _same(text)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_a_naive_date_is_left_to_jupyter_client():
    _same("2026-11-27T10:11:12")


@settings(max_examples=2000, deadline=None)
@given(st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(2200, 1, 1)),
       st.integers(min_value=-14 * 60, max_value=14 * 60), st.sampled_from(["Z", "+", "short"]),
       st.sampled_from([0, 1, 3, 6]))
def test_any_stamp_with_a_time_zone_parses_the_same(moment, minutes, zone, digits):
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    if digits:
        text += "." + f"{moment.microsecond:06d}"[:digits]
    if zone == "Z":
        text += "Z"
    else:
        offset = datetime(2000, 1, 1, tzinfo=timezone(timedelta(minutes=minutes))).strftime("%z")
        text += offset if zone == "short" else offset[:3] + ":" + offset[3:]
    _same(text)


def test_a_whole_header_extracts_the_same():
    header = {"msg_id": "a", "date": "2026-11-27T10:11:12.123456Z", "session": "s",
              "username": "u", "msg_type": "status", "version": "5.3",
              "nested": [{"date": "2026-11-27T10:11:12+01:00"}, ("x", None, 3)]}
    assert FAST(header) == jsonutil.extract_dates(header)


def test_debug_records_no_handler_prints_are_not_built():
    logger = logging.getLogger("mathcards-test-voila")
    logger.setLevel(logging.DEBUG)  # as traitlets leaves an application's logger
    handler = logging.StreamHandler()
    handler.setLevel(logging.INFO)
    logger.addHandler(handler)
    try:
        assert logger.isEnabledFor(logging.DEBUG)
        server._skip_unshown_records(logger)
        assert not logger.isEnabledFor(logging.DEBUG)
        assert logger.isEnabledFor(logging.INFO)
        handler.setLevel(logging.DEBUG)  # --debug: every record is printed, so built
        logger.setLevel(logging.DEBUG)
        server._skip_unshown_records(logger)
        assert logger.isEnabledFor(logging.DEBUG)
    finally:
        logger.removeHandler(handler)
