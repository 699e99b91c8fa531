"""The operators' read of a table's chat (``GET /admin/tournaments/{id}/tables/{table}/chat``, docs/interfaces.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from aws_lambda_powertools.event_handler import Depends
from pydantic import Field

from tourney.entrypoints.dependencies import ServicesDep
from tourney.entrypoints.models import Answer

if TYPE_CHECKING:
    from tourney.services.chat import ChatService
else:  # resolved by Powertools when the route is declared; the class loads with the services, on first use
    ChatService = Any


class ChatLineBody(Answer):
    """One line said at the table: accepted, or refused with the code its sender was answered."""

    id: str
    at: str
    hand: int = Field(description="the table's hand in progress or last dealt when the line was said")
    player: str
    speaker: str = Field(description="operator, player, in_hand or observer")
    text: str
    accepted: bool
    reason: str | None = Field(
        default=None, description="in_hand, observer, not_english, too_long, rate_limited or muted"
    )


class ChatLogBody(Answer):
    tournament_id: str
    table: str
    lines: list[ChatLineBody]


def chat_service(svc: ServicesDep) -> ChatService:
    return svc.chat


Chat = Annotated[ChatService, Depends(chat_service)]

__all__ = ["Chat", "ChatLineBody", "ChatLogBody"]
