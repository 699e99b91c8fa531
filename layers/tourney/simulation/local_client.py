"""``tourney simulate --via local``: bots as real clients of the running local stack, over HTTP and WebSocket.

An operator creates and announces the tournament (``POST /admin/tournaments``)
and credits every bot's account; each bot registers with its own token, then
connects to the WebSocket API, subscribes to its table and answers the pushes:
when a pushed table says it is the bot's turn, the bot decides (the same
styles as the in-memory simulator) and posts the action over HTTP. A bot moved
to another table finds it in the standings and subscribes there. The
tournament starts by its own schedule, exactly as on AWS.

Every message a bot receives is checked: a table pushed while a hand is in
progress may show no hole cards but the bot's own (docs/interfaces.md, WebSocket
API). The report has the fields of docs/interfaces.md that clients can observe, plus
``messages`` and ``hole_card_leaks``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import uuid
from collections.abc import Awaitable, Callable, Iterable
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
    refusals: dict[str, int] = field(default_factory=dict)
    """The refused actions by their error code (``stale_action``: the time-out, or another push, came first)."""


@dataclass
class Board:
    """The latest standings the run read (every bot looks there first, rather than asking the stack itself)."""

    standings: dict[str, Any] | None = None
    version: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def publish(self, standings: dict[str, Any]) -> None:
        self.standings = standings
        self.version += 1
        self.changed.set()
        self.changed = asyncio.Event()

    async def newer_than(self, version: int, timeout: float) -> dict[str, Any] | None:
        """Standings read after ``version`` (waiting up to ``timeout`` seconds for them); None: none yet."""
        if self.version <= version:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), timeout)
        return self.standings if self.version > version else None


class LocalBot:
    """One player: its token, its style, its table.

    ``think``: real seconds the bot waits before it acts (drawn between the two bounds; ``(0, 0)``: at once),
    so that a person at the table sees the bots play; never more than a third of the decision's time at the
    stack's clock (``time_factor``), so a thinking bot is not the one the time-out folds.
    """

    def __init__(
        self,
        player: str,
        bot: Bot,
        api: Api,
        ws_url: str,
        tournament_id: str,
        tally: Tally,
        board: Board | None = None,
        think: tuple[float, float] = (0.0, 0.0),
        time_factor: float = 1.0,
    ) -> None:
        self.player = player
        self.bot = bot
        self.api = api
        self.ws_url = ws_url
        self.tournament_id = tournament_id
        self.tally = tally
        self.board = board
        """The run's standings to look at (None: the bot asks the stack itself, as a lone client does)."""
        self.think = think
        self.time_factor = time_factor
        self._think_rng = random.Random(player)
        self.table: str | None = None
        self.acted: set[tuple[str, int, int]] = set()
        self.out = False
        self.big_blind = 100  # kept up to date from the standings by the run
        self.started = asyncio.Event()
        """Set by the run once the tournament is running: until then there is no table to look for."""
        self._lost_at = 0  # the board's version when the bot last had no table
        self._last_stack: int | None = None  # the bot's stack in the last view that seated it

    async def play(self, done: asyncio.Event) -> None:
        session = self.api.session
        async with session.ws_connect(f"{self.ws_url}?token={self.api.token}", heartbeat=20) as ws:
            while not done.is_set() and not self.out:
                if not self.started.is_set():
                    await asyncio.sleep(0.2)  # the run polls the tournament for all the bots
                    continue
                if self.table is None and not await self._find_table(ws):
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
        """Subscribe to the bot's table, from the run's standings (newer than when the bot lost its table).

        A bot that left its table with chips was moved, and its next decision may come at once: it asks
        the stack itself rather than waiting for the run's next read. One that left it with none waits.
        """
        standings: dict[str, Any] | None
        if self._last_stack or self.board is None:
            status, standings = await self.api.call("GET", f"/tournaments/{self.tournament_id}/standings")
            self._last_stack = None
            if status >= 400:
                standings = None
        else:
            standings = await self.board.newer_than(self._lost_at, timeout=2.0)
        if not isinstance(standings, dict):
            await self._pause_alone()
            return False
        self._lost_at = self.board.version if self.board is not None else 0
        mine = [row for row in standings.get("players", ()) if row["player"] == self.player]
        if not mine:
            placed = any(row.get("player") == self.player for row in standings.get("places", ()))
            if placed or standings.get("status") in FINAL:
                self.out = True  # eliminated (or it is over)
            await self._pause_alone()
            return False  # not seated yet (the start seats table after table), or being moved
        self.table = str(mine[0]["table"])
        await ws.send_json({"action": "subscribe", "tournament_id": self.tournament_id, "table_id": self.table})
        return True

    async def _pause_alone(self) -> None:
        """Half a second between a lone bot's own reads of the standings (a shared board paces itself)."""
        if self.board is None:
            await asyncio.sleep(0.5)

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
        seat = next((seat for seat in view.get("seats", ()) if seat["player"] == self.player), None)
        if seat is None:
            self.table = None  # moved or out: the standings say where
            self._lost_at = self.board.version if self.board is not None else 0
            return
        self._last_stack = int(seat.get("stack") or 0)
        to_act = view.get("to_act")
        if not to_act or to_act.get("player") != self.player:
            return
        decision = (self.table, int(view["hand"]), int(to_act["seq"]))
        if decision in self.acted:
            return
        self.acted.add(decision)
        body = self._decide(view, to_act)
        low, high = self.think
        if high > 0:
            # never more than a third of the decision's own time (real seconds at the stack's clock)
            limit = float(to_act.get("seconds") or 15) / self.time_factor / 3
            await asyncio.sleep(min(self._think_rng.uniform(low, high), limit))
        posted = time.perf_counter()
        status, answer = await self.api.call(
            "POST", f"/tournaments/{self.tournament_id}/tables/{self.table}/actions", body
        )
        self.tally.action_seconds.append(time.perf_counter() - posted)
        if status >= 400:
            self.tally.refused += 1  # a race lost to a time-out or a stale push: the next push tells
            code = str(answer.get("error")) if isinstance(answer, dict) else str(status)
            self.tally.refusals[code] = self.tally.refusals.get(code, 0) + 1
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
    name: str | None = None,
    seats_for_people: int = 0,
    think: tuple[float, float] = (0.0, 0.0),
    announce: Callable[[str, dict[str, Any]], None] | None = None,
    fill_gap_seconds: float = 0.0,
    standings_every: float = 2.0,
) -> dict[str, Any]:
    """Run one tournament on the local stack at ``urls`` (``{"http": ..., "ws": ...}``); the report.

    ``now`` is the stack's clock (its virtual time when ``time_factor`` compresses it):
    the start time is set ``registration_seconds`` of real time ahead, for the bots to register.

    ``seats_for_people``: a Sit&Go (``options.format`` sng) of ``options.players`` seats that the bots fill
    only once that many people (anyone not a bot) have registered, one bot every ``fill_gap_seconds``; it
    starts when full, as every Sit&Go does. ``announce(tournament_id, details)`` is told the tournament once
    it is created. ``think``: the bots' real seconds before acting (``LocalBot``). ``standings_every``: real
    seconds between the run's reads of the standings, which every bot then looks at (``Board``).
    """
    import aiohttp

    rng = random.Random(options.seed)
    bot_count = options.players - seats_for_people
    players = [f"bot{i:04d}-{options.seed}" for i in range(1, bot_count + 1)]
    tally = Tally()
    board = Board()
    started = time.monotonic()
    async with aiohttp.ClientSession() as session:
        admin = Api(session, urls["http"], mint("operator", True))
        cost = options.buy_in + options.entry_fee
        apis = {player: Api(session, urls["http"], mint(player, False)) for player in players}
        gate = asyncio.Semaphore(8)
        await _sign_in_and_fund(admin, apis, gate, cost * 8)
        window = registration_seconds + 0.25 * len(players)
        start_at = None if str(options.format) == "sng" else now() + timedelta(seconds=window * time_factor)
        body = _tournament_body(options, name, start_at)
        tournament_id = str((await admin.ok("POST", "/admin/tournaments", body))["id"])
        if announce is not None:
            announce(tournament_id, body)
        if seats_for_people:
            await _wait_for_people(admin, tournament_id, seats_for_people, started + timeout_seconds)
        await _register(apis, tournament_id, gate, fill_gap_seconds if seats_for_people else None)
        bots = _bots(apis, rng, urls["ws"], tournament_id, tally, board, think, time_factor)
        watch = _Watch(admin, tournament_id, bots, board, tally, options.players, progress, standings_every)
        details = await watch.while_bots_play(started, timeout_seconds)
        standings = await admin.ok("GET", f"/tournaments/{tournament_id}/standings")
        accounts = {b.player: await b.api.ok("GET", "/me/ledger") for b in bots}
        late = await late_decisions(admin, tournament_id, tally.hands)
    report = _report(options, details, standings, accounts, tally, cost * 8, time.monotonic() - started)
    report["late_decisions"] = late
    return report


async def _gated(gate: asyncio.Semaphore, calls: Iterable[Awaitable[Any]]) -> list[Any]:
    """Every call, at most as many at a time as ``gate`` lets through."""

    async def gated(call: Awaitable[Any]) -> Any:
        async with gate:
            return await call

    return await asyncio.gather(*(gated(call) for call in calls))


async def _sign_in_and_fund(admin: Api, apis: dict[str, Api], gate: asyncio.Semaphore, amount: int) -> None:
    """Every bot signs in (its account opens), then is funded, so the registration window only has to hold
    the registrations."""
    await _gated(gate, (api.ok("GET", "/me/account") for api in apis.values()))
    await _gated(
        gate,
        (admin.ok("POST", f"/admin/accounts/{p}/deposits", {"amount": amount, "key": f"seed-{p}"}) for p in apis),
    )


async def _register(apis: dict[str, Api], tournament_id: str, gate: asyncio.Semaphore, gap: float | None) -> None:
    """Every bot registers: all at once (as the gate lets through), or one every ``gap`` seconds."""
    path = f"/tournaments/{tournament_id}/registrations"
    registrations = (api.ok("POST", path, key=str(uuid.uuid4())) for api in apis.values())
    if gap is None:
        await _gated(gate, registrations)
        return
    for registration in registrations:
        await registration
        await asyncio.sleep(gap)


def _bots(
    apis: dict[str, Api],
    rng: random.Random,
    ws_url: str,
    tournament_id: str,
    tally: Tally,
    board: Board,
    think: tuple[float, float],
    time_factor: float,
) -> list[LocalBot]:
    """A bot for each player, in order, each with its style and its randomness drawn from ``rng``."""
    return [
        LocalBot(
            player,
            Bot(pick_style(rng), random.Random(rng.random())),
            api,
            ws_url,
            tournament_id,
            tally,
            board=board,
            think=think,
            time_factor=time_factor,
        )
        for player, api in apis.items()
    ]


def _tournament_body(options: SimulationOptions, name: str | None, start_at: datetime | None) -> dict[str, Any]:
    """The operator's request creating the run's tournament (no start time: a Sit&Go starts full)."""
    body: dict[str, Any] = {
        "name": name or f"local {options.format} {options.players} seed {options.seed}",
        "format": str(options.format),
        "buy_in": options.buy_in,
        "entry_fee": options.entry_fee,
        "guarantee": options.guarantee,
        "max_players": options.players,
        "min_players": 2,
        "seats_per_table": options.seats,
        "level_minutes": options.level_minutes or 1,
    }
    if start_at is not None:
        body["start_at"] = start_at.isoformat().replace("+00:00", "Z")
    return body


@dataclass
class _Watch:
    """The run's operator watching the tournament until it is over, sharing the standings with the bots."""

    admin: Api
    tournament_id: str
    bots: list[LocalBot]
    board: Board
    tally: Tally
    field: int
    progress: Callable[[int, int], None] | None
    standings_every: float

    async def while_bots_play(self, started: float, timeout_seconds: float) -> dict[str, Any]:
        """Every bot plays until the tournament is over (its details), then stops."""
        done = asyncio.Event()
        tasks = [asyncio.create_task(bot.play(done)) for bot in self.bots]
        try:
            return await self.until_over(tasks, started, timeout_seconds)
        finally:
            done.set()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def until_over(
        self, tasks: list[asyncio.Task[None]], started: float, timeout_seconds: float
    ) -> dict[str, Any]:
        """The tournament's details once it is over; ``LocalRunError`` when it is not over in time."""
        tid = self.tournament_id
        while time.monotonic() - started < timeout_seconds:
            details: dict[str, Any] = await self.admin.ok("GET", f"/tournaments/{tid}")
            if details.get("status") in FINAL:
                return details
            if details.get("status") == "running":
                for bot in self.bots:
                    bot.started.set()
            code, standings = await self.admin.call("GET", f"/tournaments/{tid}/standings")
            if code >= 400 or not isinstance(standings, dict):
                await asyncio.sleep(1.0)
                continue  # not started yet
            self._look_at(standings, running=details.get("status") == "running")
            for task in tasks:
                if task.done() and task.exception() is not None:
                    raise task.exception()  # type: ignore[misc]
            await asyncio.sleep(self.standings_every)
        raise LocalRunError(f"tournament {tid} did not end within {timeout_seconds:.0f} s")

    def _look_at(self, standings: dict[str, Any], *, running: bool) -> None:
        """Share the standings with the bots, and count the chips and tables of a complete field."""
        self.board.publish(standings)
        tally = self.tally
        rows = standings.get("players") or []
        # The start seats table after table: until every entrant is seated or placed, the standings
        # show part of the field, so only a complete field counts for chips and tables.
        if rows and len(rows) + len(standings.get("places") or ()) == self.field:
            tally.chip_totals.add(sum(int(row["chips"]) for row in rows))
            tables = len({row["table"] for row in rows})
            tally.tables_at_start = tally.tables_at_start or tables
            tally.fewest_tables = min(tally.fewest_tables or tables, tables)
        if self.progress and running:
            self.progress(int(standings.get("players_left", 0)), self.field)
        for bot in self.bots:
            bot.big_blind = int(standings.get("big_blind") or bot.big_blind)


async def credit(urls: dict[str, str], mint: Mint, player: str, amount: int) -> None:
    """An operator credits ``player``'s account with ``amount`` cents (once per run: the deposit's key), the player
    signed in first (as the demo's person would: operators credit only accounts that exist)."""
    import aiohttp

    async with aiohttp.ClientSession() as session:
        await Api(session, urls["http"], mint(player, False)).ok("GET", "/me/account")  # signs in: the account opens
        admin = Api(session, urls["http"], mint("operator", True))
        body = {"amount": amount, "key": f"demo-{player}-{uuid.uuid4().hex[:8]}"}
        await admin.ok("POST", f"/admin/accounts/{player}/deposits", body)


async def _wait_for_people(admin: Api, tournament_id: str, people: int, deadline: float) -> None:
    """Until ``people`` players who are not this run's bots have registered (no bot has yet)."""
    while time.monotonic() < deadline:
        details = await admin.ok("GET", f"/tournaments/{tournament_id}")
        if details.get("status") in FINAL:
            raise LocalRunError(f"tournament {tournament_id} ended before anyone joined: {details.get('status')}")
        if int(details.get("registered") or 0) >= people:
            return
        await asyncio.sleep(1.0)
    raise LocalRunError(f"nobody joined tournament {tournament_id}")


async def late_decisions(api: Api, tournament_id: str, hands: dict[str, int]) -> dict[str, Any]:
    """How many of the players' decisions the time-out took, out of all decisions (every finished hand's history).

    A decision is a player's fold, check, call, bet or raise in the hand's PHH ``actions``; the time-out's
    check or fold is written ``# timeout``. Every player here is a bot that answers its push at once, so each
    time-out is a decision the stack delivered, or answered, too late (the push, the POST, or its write came after
    the decision's time and time bank ran out). ``refused`` in the report counts the POSTs that lost that race.
    """
    import tomllib

    decisions = timed_out = read = 0
    for table, last in sorted(hands.items()):
        for hand in range(1, last + 1):
            status, history = await api.call("GET", f"/tournaments/{tournament_id}/tables/{table}/hands/{hand}")
            if status >= 400 or not isinstance(history, dict):
                continue  # not finished (a cancelled hand) or not kept
            read += 1
            for line in tomllib.loads(str(history.get("phh") or ""))["actions"]:
                words = str(line).split()
                if len(words) >= 2 and words[0].startswith("p") and words[1] in {"f", "cc", "cbr"}:
                    decisions += 1
                    timed_out += "# timeout" in str(line)
    share = round(100.0 * timed_out / decisions, 2) if decisions else 0.0
    return {"hands_read": read, "decisions": decisions, "timed_out": timed_out, "share_percent": share}


_TOURNAMENT_REPORTED = (
    "id",
    "format",
    "buy_in",
    "entry_fee",
    "guarantee",
    "seats_per_table",
    "started_at",
    "ended_at",
    "status",
)
"""The tournament's details the report repeats, in its order."""


def _entry(options: SimulationOptions, player: str, ledger: dict[str, Any]) -> tuple[dict[str, Any], dict[str, int]]:
    """What ``player`` paid, from their ledger; and the ledger's amounts by kind of entry."""
    kinds: dict[str, int] = {}
    counts: dict[str, int] = {}
    for line in ledger.get("entries", ()):
        kinds[line["kind"]] = kinds.get(line["kind"], 0) + int(line["amount"])
        counts[line["kind"]] = counts.get(line["kind"], 0) + 1
    paid = -sum(amount for kind, amount in kinds.items() if kind in {"buy_in", "entry_fee", "rebuy", "add_on"})
    entry = {
        "player": player,
        "buy_in_paid": options.buy_in,
        "fee_paid": options.entry_fee,
        "rebuys": counts.get("rebuy", 0),
        "addons": counts.get("add_on", 0),
        "total_paid": paid,
    }
    return entry, kinds


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
        entry, kinds = _entry(options, player, ledger)
        entries.append(entry)
        prizes += kinds.get("prize", 0)
        refunds += kinds.get("refund", 0)
    balances = sum(int(ledger.get("balance", 0)) for ledger in ledgers.values())
    extra = split_payment(Purchase.REBUY, options.buy_in, options.entry_fee)  # an add-on splits like a rebuy
    purchases = sum(e["rebuys"] + e["addons"] for e in entries)
    collected = split.pool * len(ledgers) + extra.pool * purchases
    house = split.house * len(ledgers) + extra.house * purchases
    return {
        "tournament": {key: details.get(key) for key in _TOURNAMENT_REPORTED},
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
        "refusals": dict(sorted(tally.refusals.items())),
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
