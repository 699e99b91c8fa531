"""``tourney simulate --via local``: bots as real clients of the running local stack, over HTTP and WebSocket.

An operator creates and announces the tournament (``POST /admin/tournaments``)
and credits every bot's account; each bot registers with its own token, then
connects to the WebSocket API, subscribes to its table and answers the pushes:
when a pushed table says it is the bot's turn, the bot decides (the same
styles as the in-memory simulator) and posts the action over HTTP. A bot moved
to another table finds it in the standings and subscribes there. The
tournament starts by its own schedule, exactly as on AWS.

Every message a bot receives is checked: a table pushed while a hand is in
progress may show no hole cards but the bot's own (CONTRACT.md, WebSocket
API). The report has the CONTRACT.md fields that clients can observe, plus
``messages`` and ``hole_card_leaks``.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from tourney.domain.cards import parse_card
from tourney.domain.fees import Purchase, split_payment
from tourney.simulation.bots import Bot, Move, Situation, pick_style
from tourney.simulation.memory import SimulationOptions

Mint = Callable[[str, bool], str]
"""Mint a token for a player (``True``: an operator)."""

FINAL = {"finished", "terminated", "cancelled"}


class LocalRunError(RuntimeError):
    """The local stack refused something a well-behaved client does."""


@dataclass
class Api:
    """HTTP calls with a bearer token; 4xx answers are returned, anything else raises."""

    session: Any
    base: str
    token: str

    async def call(self, method: str, path: str, body: Any = None, *, key: str | None = None) -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {self.token}"}
        if key:
            headers["Idempotency-Key"] = key
        async with self.session.request(method, self.base + path, json=body, headers=headers) as response:
            text = await response.text()
            payload = json.loads(text) if text else None
            if response.status >= 500:
                raise LocalRunError(f"{method} {path} -> {response.status}: {text[:300]}")
            return response.status, payload

    async def ok(self, method: str, path: str, body: Any = None, *, key: str | None = None) -> Any:
        status, payload = await self.call(method, path, body, key=key)
        if status >= 400:
            raise LocalRunError(f"{method} {path} -> {status}: {payload}")
        return payload


@dataclass
class Tally:
    messages: int = 0
    leaks: int = 0
    actions: int = 0
    refused: int = 0
    leak_examples: list[str] = field(default_factory=list)
    chip_totals: set[int] = field(default_factory=set)
    """Every total of the standings' chips seen while the tournament ran (one value: chips conserved)."""
    tables_at_start: int = 0
    fewest_tables: int = 0
    hands: dict[str, int] = field(default_factory=dict)
    """The highest hand number seen at each table."""
    action_seconds: list[float] = field(default_factory=list)
    """How long each action's HTTP round trip took (the bot's POST to its answer)."""


class LocalBot:
    """One player: its token, its style, its table."""

    def __init__(self, player: str, bot: Bot, api: Api, ws_url: str, tournament_id: str, tally: Tally) -> None:
        self.player = player
        self.bot = bot
        self.api = api
        self.ws_url = ws_url
        self.tournament_id = tournament_id
        self.tally = tally
        self.table: str | None = None
        self.acted: set[tuple[str, int, int]] = set()
        self.out = False
        self.big_blind = 100  # kept up to date from the standings by the run
        self.started = asyncio.Event()
        """Set by the run once the tournament is running: until then there is no table to look for."""

    async def play(self, done: asyncio.Event) -> None:
        session = self.api.session
        async with session.ws_connect(f"{self.ws_url}?token={self.api.token}", heartbeat=20) as ws:
            while not done.is_set() and not self.out:
                if not self.started.is_set():
                    await asyncio.sleep(0.2)  # the run polls the tournament for all the bots
                    continue
                if self.table is None and not await self._find_table(ws):
                    await asyncio.sleep(0.5)
                    continue
                try:
                    message = await ws.receive(timeout=5.0)
                except TimeoutError:
                    await self._refresh()  # a missed push never stalls the bot
                    continue
                if message.type.name in {"CLOSED", "CLOSING", "ERROR"}:
                    return
                if message.type.name != "TEXT":
                    continue
                self.tally.messages += 1
                data = json.loads(message.data)
                if isinstance(data.get("table"), dict):
                    await self._on_table(data["table"])

    async def _find_table(self, ws: Any) -> bool:
        status, standings = await self.api.call("GET", f"/tournaments/{self.tournament_id}/standings")
        if status >= 400 or standings is None:
            return False
        mine = [row for row in standings.get("players", ()) if row["player"] == self.player]
        if not mine:
            if standings.get("status") == "running" and standings.get("players"):
                self.out = True  # eliminated
            return False
        self.table = str(mine[0]["table"])
        await ws.send_json({"action": "subscribe", "tournament_id": self.tournament_id, "table_id": self.table})
        return True

    async def _refresh(self) -> None:
        if self.table is None:
            return
        status, view = await self.api.call("GET", f"/tournaments/{self.tournament_id}/tables/{self.table}")
        if status < 400 and isinstance(view, dict):
            await self._on_table(view)

    async def _on_table(self, view: dict[str, Any]) -> None:
        self._check_privacy(view)
        table = str(view.get("table"))
        self.tally.hands[table] = max(self.tally.hands.get(table, 0), int(view.get("hand") or 0))
        if table != self.table:
            return
        if not any(seat["player"] == self.player for seat in view.get("seats", ())):
            self.table = None  # moved or out: the standings say where
            return
        to_act = view.get("to_act")
        if not to_act or to_act.get("player") != self.player:
            return
        decision = (self.table, int(view["hand"]), int(to_act["seq"]))
        if decision in self.acted:
            return
        self.acted.add(decision)
        body = self._decide(view, to_act)
        posted = time.perf_counter()
        status, _ = await self.api.call("POST", f"/tournaments/{self.tournament_id}/tables/{self.table}/actions", body)
        self.tally.action_seconds.append(time.perf_counter() - posted)
        if status >= 400:
            self.tally.refused += 1  # a race lost to a time-out or a stale push: the next push tells
        else:
            self.tally.actions += 1

    def _check_privacy(self, view: dict[str, Any]) -> None:
        if not view.get("hand_in_progress"):
            return
        for seat in view.get("seats", ()):
            if seat.get("cards") and seat.get("player") != self.player:
                self.tally.leaks += 1
                if len(self.tally.leak_examples) < 5:
                    self.tally.leak_examples.append(f"{self.player} saw {seat['player']}'s {seat['cards']}")

    def _decide(self, view: dict[str, Any], to_act: dict[str, Any]) -> dict[str, Any]:
        seat = next(s for s in view["seats"] if s["player"] == self.player)
        cards: list[str] = list(seat.get("cards") or ())
        big_blind = self.big_blind
        base = {"hand": int(view["hand"]), "seq": int(to_act["seq"])}
        if len(cards) != 2:
            return {**base, "action": "check" if to_act.get("can_check") else "fold"}
        seen = Situation(
            hole=(parse_card(cards[0]), parse_card(cards[1])),
            board=tuple(parse_card(c) for c in view.get("board", ())),
            stack=int(seat["stack"]) - int(seat.get("bet", 0)),
            to_call=int(to_act.get("to_call", 0)),
            pot=int(view.get("pot", 0)),
            min_raise_to=to_act.get("min_raise_to"),
            max_raise_to=to_act.get("max_raise_to"),
            big_blind=big_blind,
        )
        choice = self.bot.decide(seen)
        if choice.move is Move.RAISE and choice.amount is not None:
            kind = "bet" if seen.to_call == 0 and int(seat.get("bet", 0)) == 0 else "raise"
            return {**base, "action": kind, "amount": choice.amount}
        if choice.move is Move.CALL and seen.to_call > 0:
            return {**base, "action": "call"}
        if to_act.get("can_check"):
            return {**base, "action": "check"}
        return {**base, "action": "fold"}


async def simulate_local(
    options: SimulationOptions,
    urls: dict[str, str],
    mint: Mint,
    *,
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
    time_factor: float = 1.0,
    progress: Callable[[int, int], None] | None = None,
    registration_seconds: float = 15.0,
    timeout_seconds: float = 1800.0,
) -> dict[str, Any]:
    """Run one tournament on the local stack at ``urls`` (``{"http": ..., "ws": ...}``); the report.

    ``now`` is the stack's clock (its virtual time when ``time_factor`` compresses it):
    the start time is set ``registration_seconds`` of real time ahead, for the bots to register.
    """
    import aiohttp

    rng = random.Random(options.seed)
    players = [f"bot{i:04d}-{options.seed}" for i in range(1, options.players + 1)]
    tally = Tally()
    started = time.monotonic()
    async with aiohttp.ClientSession() as session:
        admin = Api(session, urls["http"], mint("operator", True))
        cost = options.buy_in + options.entry_fee
        apis = {player: Api(session, urls["http"], mint(player, False)) for player in players}
        gate = asyncio.Semaphore(8)

        async def gated(call: Any) -> Any:
            async with gate:
                return await call

        # Fund every bot first, so the registration window only has to hold the registrations.
        await asyncio.gather(
            *(
                gated(admin.ok("POST", f"/admin/accounts/{p}/deposits", {"amount": cost * 8, "key": f"seed-{p}"}))
                for p in players
            )
        )
        window = registration_seconds + 0.25 * len(players)
        body: dict[str, Any] = {
            "name": f"local {options.format} {options.players} seed {options.seed}",
            "format": str(options.format),
            "buy_in": options.buy_in,
            "entry_fee": options.entry_fee,
            "guarantee": options.guarantee,
            "max_players": options.players,
            "min_players": 2,
            "seats_per_table": options.seats,
            "level_minutes": options.level_minutes or 1,
        }
        if str(options.format) != "sng":
            start_at = now() + timedelta(seconds=window * time_factor)
            body["start_at"] = start_at.isoformat().replace("+00:00", "Z")
        tournament_id = str((await admin.ok("POST", "/admin/tournaments", body))["id"])
        await asyncio.gather(
            *(
                gated(apis[p].ok("POST", f"/tournaments/{tournament_id}/registrations", key=str(uuid.uuid4())))
                for p in players
            )
        )
        bots = [
            LocalBot(p, Bot(pick_style(rng), random.Random(rng.random())), apis[p], urls["ws"], tournament_id, tally)
            for p in players
        ]
        done = asyncio.Event()
        tasks = [asyncio.create_task(bot.play(done)) for bot in bots]
        details: dict[str, Any] = {}
        try:
            while time.monotonic() - started < timeout_seconds:
                details = await admin.ok("GET", f"/tournaments/{tournament_id}")
                if details.get("status") in FINAL:
                    break
                if details.get("status") == "running":
                    for bot in bots:
                        bot.started.set()
                code, standings = await admin.call("GET", f"/tournaments/{tournament_id}/standings")
                if code >= 400 or not isinstance(standings, dict):
                    await asyncio.sleep(1.0)
                    continue  # not started yet
                rows = standings.get("players") or []
                # The start seats table after table: until every entrant is seated or placed, the standings
                # show part of the field, so only a complete field counts for chips and tables.
                if rows and len(rows) + len(standings.get("places") or ()) == len(bots):
                    tally.chip_totals.add(sum(int(row["chips"]) for row in rows))
                    tables = len({row["table"] for row in rows})
                    tally.tables_at_start = tally.tables_at_start or tables
                    tally.fewest_tables = min(tally.fewest_tables or tables, tables)
                if progress and details.get("status") == "running":
                    progress(int(standings.get("players_left", 0)), options.players)
                for bot in bots:
                    bot.big_blind = int(standings.get("big_blind") or bot.big_blind)
                for task in tasks:
                    if task.done() and task.exception() is not None:
                        raise task.exception()  # type: ignore[misc]
                await asyncio.sleep(1.0)
            else:
                raise LocalRunError(f"tournament {tournament_id} did not end within {timeout_seconds:.0f} s")
        finally:
            done.set()
            await asyncio.gather(*tasks, return_exceptions=True)
        standings = await admin.ok("GET", f"/tournaments/{tournament_id}/standings")
        accounts = {b.player: await b.api.ok("GET", "/me/ledger") for b in bots}
    return _report(options, details, standings, accounts, tally, cost * 8, time.monotonic() - started)


def _report(
    options: SimulationOptions,
    details: dict[str, Any],
    standings: dict[str, Any],
    ledgers: dict[str, dict[str, Any]],
    tally: Tally,
    deposit_each: int,
    wall: float,
) -> dict[str, Any]:
    split = split_payment(Purchase.BUY_IN, options.buy_in, options.entry_fee)
    entries: list[dict[str, Any]] = []
    prizes = refunds = 0
    for player, ledger in ledgers.items():
        kinds: dict[str, int] = {}
        counts: dict[str, int] = {}
        for line in ledger.get("entries", ()):
            kinds[line["kind"]] = kinds.get(line["kind"], 0) + int(line["amount"])
            counts[line["kind"]] = counts.get(line["kind"], 0) + 1
        prizes += kinds.get("prize", 0)
        refunds += kinds.get("refund", 0)
        paid = -sum(amount for kind, amount in kinds.items() if kind in {"buy_in", "entry_fee", "rebuy", "add_on"})
        entries.append(
            {
                "player": player,
                "buy_in_paid": options.buy_in,
                "fee_paid": options.entry_fee,
                "rebuys": counts.get("rebuy", 0),
                "addons": counts.get("add_on", 0),
                "total_paid": paid,
            }
        )
    balances = sum(int(ledger.get("balance", 0)) for ledger in ledgers.values())
    extra = split_payment(Purchase.REBUY, options.buy_in, options.entry_fee)  # an add-on splits like a rebuy
    purchases = sum(e["rebuys"] + e["addons"] for e in entries)
    collected = split.pool * len(ledgers) + extra.pool * purchases
    house = split.house * len(ledgers) + extra.house * purchases
    return {
        "tournament": {
            "id": details.get("id"),
            "format": details.get("format"),
            "buy_in": details.get("buy_in"),
            "entry_fee": details.get("entry_fee"),
            "guarantee": details.get("guarantee"),
            "seats_per_table": details.get("seats_per_table"),
            "started_at": details.get("started_at"),
            "ended_at": details.get("ended_at"),
            "status": details.get("status"),
        },
        "entries": entries,
        "places": sorted(standings.get("places", ()), key=lambda p: (p["place"], p["player"])),
        "ledger": {
            "deposits": deposit_each * len(ledgers),
            "player_balances": balances,
            "prize_pool_collected": collected,
            "overlay": max(0, int(details.get("guarantee") or 0) - collected) if prizes else 0,
            "prizes_paid": prizes,
            "house_revenue": house,
            "refunds": refunds,
        },
        "hands": sum(tally.hands.values()),
        "tables_at_start": tally.tables_at_start,
        "moves": None,  # not visible to clients
        "final_table_formed": tally.tables_at_start > 1 and tally.fewest_tables == 1,
        "via": "local",
        "messages": tally.messages,
        "actions": tally.actions,
        "actions_refused": tally.refused,
        "hole_card_leaks": tally.leaks,
        "chip_totals_seen": sorted(tally.chip_totals),
        "leak_examples": tally.leak_examples,
        "wall_seconds": round(wall, 1),
        "action_ms": _percentiles(tally.action_seconds),
    }


def _percentiles(seconds: list[float]) -> dict[str, float]:
    """p50 / p99 / max of the actions' round trips, in milliseconds (empty: none measured)."""
    if not seconds:
        return {}
    ordered = sorted(seconds)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)

    return {"p50": at(0.50), "p99": at(0.99), "max": round(ordered[-1] * 1000, 1), "count": len(ordered)}
