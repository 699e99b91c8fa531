"""Concurrent invocations in the local runtime's one process never see each other's request.

On AWS every execution environment is a process of its own; locally a function
runs several invocations at once in threads, so the runtime keeps per thread
what Powertools keeps on a class (``infra/local/isolation.py``).
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import aiohttp
from aws_lambda_powertools.event_handler.api_gateway import APIGatewayHttpResolver, BaseRouter

from infra.local.isolation import isolate_powertools_routers
from infra.local.runtime import LocalRuntime


def test_a_resolvers_current_event_is_per_thread() -> None:
    # Given the isolation installed and an event resolved in this thread
    isolate_powertools_routers()
    resolver = APIGatewayHttpResolver()
    BaseRouter.current_event = "this thread's event"  # type: ignore[assignment]
    seen: list[Any] = []

    def other_invocation() -> None:
        BaseRouter.current_event = "another invocation's event"  # type: ignore[assignment]
        seen.append(resolver.current_event)

    # When another thread resolves its own event
    thread = threading.Thread(target=other_invocation)
    thread.start()
    thread.join()
    # Then each thread reads its own, through the class and through the resolver
    assert seen == ["another invocation's event"]
    assert resolver.current_event == BaseRouter.current_event == "this thread's event"


def test_concurrent_callers_each_get_their_own_account(stack: LocalRuntime) -> None:
    # Given forty players, each with a token
    players = [f"iso{i:02d}" for i in range(40)]
    tokens = {player: stack.token(player) for player in players}

    async def everyone_at_once() -> list[tuple[str, int, Any]]:
        async with aiohttp.ClientSession() as session:

            async def one(player: str) -> tuple[str, int, Any]:
                headers = {"Authorization": f"Bearer {tokens[player]}"}
                async with session.get(stack.urls["http"] + "/me/account", headers=headers) as response:
                    return player, response.status, (await response.json()).get("player")

            return await asyncio.gather(*(one(player) for player in players * 4))

    # When they all ask for their account at once (the api function runs several invocations concurrently)
    answers = asyncio.run(everyone_at_once())
    # Then every answer is the caller's own
    assert [(player, status) for player, status, _ in answers] == [(player, 200) for player in players * 4]
    assert [seen for _, _, seen in answers] == players * 4
