"""What AWS charges: us-east-1 on-demand prices, and a meter that counts and prices every request by service.

Prices are exact decimals (USD), overridable (``Prices().with_overrides(...)``). The defaults are the published
us-east-1 on-demand prices as AWS publishes them, except DynamoDB's: AWS halved
on-demand throughput prices on 1 November 2024, to $0.625 per million write request units and $0.125 per million
read request units (the notes' $1.25 and $0.25 are the older figures, kept as :data:`DYNAMODB_BEFORE_NOV_2024`).

Billing rules counted here: a Lambda invocation is one request plus its duration, rounded up to the millisecond,
times its memory in GB (arm64 GB-seconds 20 % below x86); a WebSocket message is counted per 32 KB, both ways;
an SQS request per 64 KB of payload (a batch of up to 10 messages is one request); an HTTP API request per
512 KB; a Step Functions standard workflow is priced by state transitions.

>>> meter = CostMeter()
>>> meter.dynamodb(Request.UPDATE_ITEM, write_units=2)
>>> meter.lambda_invocation("coordinator", seconds=0.3, memory_mb=1024, architecture="arm64")
>>> meter.report(hands=1).total_usd
Decimal('0.00000545002')
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from tourney.simulation.aws.requests import Request, Service

MILLION = Decimal(1_000_000)
KB = 1024


@dataclass(frozen=True)
class Prices:
    """USD, us-east-1, on demand (first pricing tier of each service)."""

    dynamodb_write_unit: Decimal = Decimal("0.625") / MILLION
    dynamodb_read_unit: Decimal = Decimal("0.125") / MILLION
    lambda_request: Decimal = Decimal("0.20") / MILLION
    lambda_gb_second_x86: Decimal = Decimal("0.0000166667")
    lambda_gb_second_arm64: Decimal = Decimal("0.0000133334")
    http_request: Decimal = Decimal("1.00") / MILLION
    websocket_message: Decimal = Decimal("1.00") / MILLION
    websocket_connection_minute: Decimal = Decimal("0.25") / MILLION
    sqs_standard_request: Decimal = Decimal("0.40") / MILLION
    sqs_fifo_request: Decimal = Decimal("0.50") / MILLION
    step_functions_transition: Decimal = Decimal("25") / MILLION

    def with_overrides(self, **prices: Decimal) -> Prices:
        return dataclasses.replace(self, **prices)


DEFAULT_PRICES = Prices()
DYNAMODB_BEFORE_NOV_2024 = DEFAULT_PRICES.with_overrides(
    dynamodb_write_unit=Decimal("1.25") / MILLION, dynamodb_read_unit=Decimal("0.25") / MILLION
)
"""DynamoDB's on-demand prices before 1 November 2024 (the figures most references still quote)."""

WEBSOCKET_MESSAGE_BYTES = 32 * KB
SQS_REQUEST_BYTES = 64 * KB
HTTP_REQUEST_BYTES = 512 * KB


def _chunks(size: int, unit: int) -> int:
    return max(1, math.ceil(size / unit))


@dataclass
class ServiceCost:
    """One service's requests, the units they were priced by, and their price."""

    requests: int = 0
    units: dict[str, Decimal] = field(default_factory=dict)
    usd: Decimal = Decimal(0)

    def add(self, unit: str, amount: Decimal) -> None:
        self.units[unit] = self.units.get(unit, Decimal(0)) + amount

    def to_dict(self) -> dict[str, Any]:
        return {
            "requests": self.requests,
            "units": {unit: float(amount) for unit, amount in self.units.items()},
            "usd": float(self.usd),
        }


@dataclass(frozen=True)
class CostReport:
    """The cost of a run by service, with the request counts it was priced from."""

    services: Mapping[Service, ServiceCost]
    hands: int | None = None

    @property
    def total_usd(self) -> Decimal:
        return sum((cost.usd for cost in self.services.values()), Decimal(0))

    def per_1000_hands(self) -> dict[str, float]:
        """``cost_per_1000_hands_usd`` of ``tourney bench capacity``: total and each service."""
        if not self.hands:
            raise ValueError("no hand was played")
        scale = Decimal(1000) / self.hands
        costs = {"total": float(self.total_usd * scale)}
        costs.update({service.value: float(self.services[service].usd * scale) for service in Service})
        return costs

    def requests_per_1000_hands(self) -> dict[str, float]:
        """``requests_per_1000_hands`` of ``tourney bench capacity``, by service."""
        if not self.hands:
            raise ValueError("no hand was played")
        return {service.value: self.services[service].requests * 1000 / self.hands for service in Service}

    def to_dict(self) -> dict[str, Any]:
        return {
            "total_usd": float(self.total_usd),
            "hands": self.hands,
            "by_service": {service.value: cost.to_dict() for service, cost in self.services.items()},
        }


_DYNAMODB_READ = (Service.DYNAMODB, "read_units")
_DYNAMODB_WRITE = (Service.DYNAMODB, "write_units")
_MB_MS_ARM64 = "mb_ms:arm64"
_MB_MS_X86 = "mb_ms:x86_64"


class CostMeter:
    """Counts every request a run makes, by service; prices them when asked for a report.

    The counting is plain numbers (it runs for every request of a large simulation); the prices are applied, in
    exact decimals, by :meth:`report`.
    """

    def __init__(self, prices: Prices = DEFAULT_PRICES) -> None:
        self.prices = prices
        self._requests: dict[Service, int] = dict.fromkeys(Service, 0)
        self._units: dict[tuple[Service, str], float] = {}
        self.requests: Counter[Request] = Counter()
        """Requests by kind (DynamoDB, SQS, posts)."""
        self.invocations: Counter[str] = Counter()
        """Lambda invocations by function."""

    def _count(self, service: Service, requests: int, unit: str, amount: float) -> None:
        self._requests[service] += requests
        key = (service, unit)
        self._units[key] = self._units.get(key, 0) + amount

    def dynamodb(self, request: Request, *, read_units: float = 0.0, write_units: float = 0.0) -> None:
        """One DynamoDB request that consumed these units (``items.py`` computes them).

        ``_count``'s two calls inline, in the same order (the hottest meter: every request of a large run).
        """
        self.requests[request] += 1
        self._requests[Service.DYNAMODB] += 1
        units = self._units
        units[_DYNAMODB_READ] = units.get(_DYNAMODB_READ, 0) + read_units
        units[_DYNAMODB_WRITE] = units.get(_DYNAMODB_WRITE, 0) + write_units

    def lambda_invocation(self, function: str, *, seconds: float, memory_mb: int, architecture: str = "x86_64") -> None:
        """One invocation of ``function`` that ran ``seconds`` (billed to the millisecond above) at ``memory_mb``."""
        billed_ms = math.ceil(round(seconds * 1000, 6))
        self.invocations[function] += 1
        self._count(Service.LAMBDA, 1, "requests", 1)
        self._count(Service.LAMBDA, 0, _MB_MS_ARM64 if architecture == "arm64" else _MB_MS_X86, billed_ms * memory_mb)

    def http_request(self, size: int = 0, count: int = 1) -> None:
        """``count`` HTTP API requests of ``size`` bytes each."""
        self._count(Service.HTTP, count, "requests", count * _chunks(size, HTTP_REQUEST_BYTES))

    def websocket_message(self, size: int = 0, count: int = 1, *, posted: bool = True) -> None:
        """``count`` WebSocket messages of ``size`` bytes each: posts to connections (``posted``) or messages from
        them."""
        if posted:
            self.requests[Request.POST_TO_CONNECTION] += count
        self._count(Service.WEBSOCKET, count, "messages", count * _chunks(size, WEBSOCKET_MESSAGE_BYTES))

    def websocket_connection_minutes(self, minutes: float) -> None:
        self._count(Service.WEBSOCKET, 0, "connection_minutes", minutes)

    def sqs_request(self, request: Request = Request.SEND_MESSAGE, *, fifo: bool, size: int = 0) -> None:
        """One SQS request (a send, a batch send, a receive, a delete) carrying ``size`` bytes of payload."""
        self.requests[request] += 1
        self._count(Service.SQS, 1, "fifo_requests" if fifo else "requests", _chunks(size, SQS_REQUEST_BYTES))

    def state_transitions(self, count: int = 1) -> None:
        """``count`` Step Functions state transitions (standard workflows)."""
        self._count(Service.STEP_FUNCTIONS, count, "transitions", count)

    def _price(self, service: Service, unit: str, amount: Decimal) -> tuple[str, Decimal, Decimal]:
        """(the unit as reported, its amount, its price in USD)."""
        p = self.prices
        if unit.startswith("mb_ms:"):
            gb_seconds = amount / 1000 / 1024
            per = p.lambda_gb_second_arm64 if unit.endswith("arm64") else p.lambda_gb_second_x86
            return f"gb_seconds:{unit.removeprefix('mb_ms:')}", gb_seconds, gb_seconds * per
        price = {
            (Service.DYNAMODB, "read_units"): p.dynamodb_read_unit,
            (Service.DYNAMODB, "write_units"): p.dynamodb_write_unit,
            (Service.LAMBDA, "requests"): p.lambda_request,
            (Service.HTTP, "requests"): p.http_request,
            (Service.WEBSOCKET, "messages"): p.websocket_message,
            (Service.WEBSOCKET, "connection_minutes"): p.websocket_connection_minute,
            (Service.SQS, "requests"): p.sqs_standard_request,
            (Service.SQS, "fifo_requests"): p.sqs_fifo_request,
            (Service.STEP_FUNCTIONS, "transitions"): p.step_functions_transition,
        }[(service, unit)]
        return unit, amount, amount * price

    def report(self, hands: int | None = None) -> CostReport:
        """The costs so far; ``hands``: the hands played, for the per-1,000-hands figures."""
        services = {service: ServiceCost(requests=self._requests[service]) for service in Service}
        for (service, unit), amount in self._units.items():
            name, units, usd = self._price(service, unit, Decimal(repr(amount)))
            cost = services[service]
            cost.add(name, units)
            cost.usd += usd
        return CostReport(services, hands)
