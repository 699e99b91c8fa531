"""The table chat on DynamoDB (``services/chat.py``, ``ChatLog``; items in ``models/chat.py``).

Lines are put once each and read with one Query of the table's partition
(oldest first, strongly consistent, every page). A player's rate window is
one item, put conditionally on the version it was read at, so the limit of
docs/rules.md's rule 18 holds across every Lambda that runs the ``ws`` function;
a lost race is ``StaleVersion`` and the service reads the window again. The
function's role may read and put items of the table, never update or delete
one (``infra/wiring.py``): windows and operators' connections go by TTL.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from pynamodb.exceptions import PutError

from tourney.adapters.dynamo.connections import LIFETIME_SECONDS
from tourney.adapters.dynamo.models.chat import (
    LINE_PREFIX,
    OPERATOR_SK,
    RATE_SK,
    ChatLineItem,
    OperatorConnectionItem,
    RateWindowItem,
    connection_pk,
    rate_pk,
    table_pk,
)
from tourney.domain.chat import RATE_SECONDS, RateWindow, Speaker
from tourney.domain.errors import StaleVersion
from tourney.services.chat import ChatLine

WINDOW_TTL_SECONDS = 60
"""A window item outlives its last line by a minute (DynamoDB's TTL may take longer to delete it: harmless)."""


def _conditional_failure(error: PutError) -> bool:
    cause = getattr(error, "cause_response_code", None)
    return cause == "ConditionalCheckFailedException"


class DynamoChatLog:
    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock

    def append(self, line: ChatLine) -> None:
        ChatLineItem(
            table_pk(line.tournament_id, line.table_id),
            f"{LINE_PREFIX}{line.line_id}",
            tournament_id=line.tournament_id,
            table_id=line.table_id,
            at=line.at.isoformat(),
            hand=line.hand,
            player=line.player,
            speaker=str(line.speaker),
            text=line.text,
            accepted=line.accepted,
            reason=line.reason,
        ).save()

    def lines(self, tournament_id: str, table_id: str) -> Sequence[ChatLine]:
        items = ChatLineItem.query(
            table_pk(tournament_id, table_id), ChatLineItem.sk.startswith(LINE_PREFIX), consistent_read=True
        )
        return tuple(
            ChatLine(
                tournament_id=item.tournament_id,
                table_id=item.table_id,
                line_id=item.sk.removeprefix(LINE_PREFIX),
                at=datetime.fromisoformat(item.at),
                hand=int(item.hand),
                player=item.player,
                speaker=Speaker(item.speaker),
                text=item.text,
                accepted=bool(item.accepted),
                reason=item.reason,
            )
            for item in items
        )

    def window(self, player: str) -> RateWindow:
        try:
            item = RateWindowItem.get(rate_pk(player), RATE_SK, consistent_read=True)
        except RateWindowItem.DoesNotExist:
            return RateWindow()
        times: list[Any] = list(item.times or ())
        return RateWindow(tuple(float(t) for t in times), int(item.version))

    def save_window(self, player: str, window: RateWindow) -> None:
        newest = max(window.times, default=self._clock())
        item = RateWindowItem(
            rate_pk(player),
            RATE_SK,
            times=list(window.times),
            version=window.version,
            expires_at=int(newest + RATE_SECONDS + WINDOW_TTL_SECONDS),
        )
        previous = window.version - 1
        condition = RateWindowItem.pk.does_not_exist() if previous == 0 else RateWindowItem.version == previous
        try:
            item.save(condition=condition)
        except PutError as error:
            if _conditional_failure(error):
                raise StaleVersion(f"{player}'s chat window moved on") from error
            raise

    def mark_operator(self, connection: str) -> None:
        OperatorConnectionItem(
            connection_pk(connection), OPERATOR_SK, expires_at=int(self._clock()) + LIFETIME_SECONDS
        ).save()

    def is_operator(self, connection: str) -> bool:
        try:
            item = OperatorConnectionItem.get(connection_pk(connection), OPERATOR_SK, consistent_read=True)
        except OperatorConnectionItem.DoesNotExist:
            return False
        return int(item.expires_at) > int(self._clock())
