"""The memory store keeps a finished hand packed (marshal, times in microseconds): read back whole."""

from datetime import UTC, datetime, timedelta, timezone

import pytest
from tourney.adapters.memory import MemoryStore
from tourney.services.records import HandRecord

SECRET = "ab" * 32


@pytest.mark.parametrize(
    "dealt_at",
    [
        datetime(2026, 12, 1, 21, 5, 1, 123_457, tzinfo=UTC),
        datetime(1969, 12, 31, 23, 59, 59, 999_999, tzinfo=UTC),  # before 1970: negative microseconds
        datetime(2026, 12, 1, 23, 5, 1, 7, tzinfo=timezone(timedelta(hours=2))),  # not UTC: kept as text
    ],
)
def test_a_stored_hand_reads_back_equal_to_the_microsecond_and_in_its_time_zone(dealt_at: datetime) -> None:
    hand = {"version": 3, "seats": [1, 4], "deck": "As" * 52, "secret": SECRET, "decisions": "f4*"}
    ended_at = dealt_at + timedelta(seconds=41, microseconds=3)
    record = HandRecord("t1", "3", 17, hand, {1: "ann", 4: "bob"}, 9, 2, dealt_at, ended_at)
    for copying in (True, False):
        store = MemoryStore(copy_records=copying)
        uow = store.unit_of_work()
        uow.save(record)
        uow.commit()
        back = store.hands.get("t1", "3", 17)
        assert back.hand == hand and back.players == {1: "ann", 4: "bob"} and back.version == 1
        assert (back.dealt_at, back.ended_at) == (dealt_at, ended_at)
        assert back.dealt_at.utcoffset() == dealt_at.utcoffset() and back.ended_at.tzinfo == ended_at.tzinfo
