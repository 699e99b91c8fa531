"""Counted cost (``simulation/aws/pricing.py``): every request priced at us-east-1 on-demand prices, by service."""

from __future__ import annotations

from decimal import Decimal

import pytest
from tourney.simulation.aws.pricing import DYNAMODB_BEFORE_NOV_2024, CostMeter
from tourney.simulation.aws.requests import Request, Service


def _known_mix(meter: CostMeter) -> None:
    for _ in range(10_000):
        meter.dynamodb(Request.TRANSACT_WRITE_ITEMS, write_units=100)  # 1,000,000 write units
        meter.dynamodb(Request.QUERY, read_units=400)  # 4,000,000 read units
        meter.lambda_invocation("coordinator", seconds=9.9995, memory_mb=1024, architecture="arm64")  # 10 s billed
        meter.sqs_request(Request.SEND_MESSAGE_BATCH, fifo=True, size=256 * 1024)  # 4 requests of 64 KB
    meter.websocket_message(size=1_000, count=2_000_000)
    meter.websocket_connection_minutes(4_000_000)
    meter.http_request(count=1_000_000)
    meter.state_transitions(10_000)


def test_a_known_mix_of_requests_is_priced_to_the_cent_by_service() -> None:
    # Given a run's requests: DynamoDB, Lambda on arm64, SQS FIFO, WebSocket, HTTP and Step Functions
    meter = CostMeter()
    _known_mix(meter)

    # When it is priced
    report = meter.report(hands=10_000)
    usd = {service: report.services[service].usd for service in Service}

    # Then each service costs what us-east-1 charges on demand:
    assert usd[Service.DYNAMODB] == Decimal("0.625") + Decimal("0.500")  # $0.625/M writes, $0.125/M reads
    assert usd[Service.LAMBDA] == Decimal("0.002") + Decimal("1.33334")  # 10,000 requests, 100,000 GB-s arm64
    assert usd[Service.SQS] == Decimal("0.02")  # 40,000 FIFO requests of 64 KB at $0.50/M
    assert usd[Service.WEBSOCKET] == Decimal("2.00") + Decimal("1.00")  # messages, connection minutes
    assert usd[Service.HTTP] == Decimal("1.00")
    assert usd[Service.STEP_FUNCTIONS] == Decimal("0.25")
    assert round(report.total_usd, 2) == Decimal("6.73")
    # and beside each, the requests it was priced from
    assert report.services[Service.DYNAMODB].requests == 20_000
    assert report.services[Service.LAMBDA].units["gb_seconds:arm64"] == 100_000
    assert report.services[Service.SQS].requests == 10_000
    per_hand = report.per_1000_hands()
    assert per_hand["total"] == pytest.approx(0.673034)
    assert per_hand["websocket"] == pytest.approx(0.3)
    assert report.requests_per_1000_hands()["dynamodb"] == 2_000


def test_dynamodb_at_its_older_prices_costs_twice_as_much() -> None:
    # Given the same mix priced at DynamoDB's prices before November 2024 (the figures most references still quote)
    meter = CostMeter(DYNAMODB_BEFORE_NOV_2024)
    _known_mix(meter)

    # When it is priced
    # Then DynamoDB costs $1.25/M writes and $0.25/M reads
    assert meter.report().services[Service.DYNAMODB].usd == Decimal("1.25") + Decimal("1.00")


def test_lambda_bills_each_started_millisecond_at_its_memory_and_x86_above_arm64() -> None:
    # Given one x86 invocation of 100.2 ms at 512 MB
    meter = CostMeter()

    # When it is priced
    meter.lambda_invocation("api", seconds=0.1002, memory_mb=512)

    # Then 101 ms at half a GB and one request are billed
    assert meter.report().services[Service.LAMBDA].usd == Decimal("0.0505") * Decimal("0.0000166667") + Decimal(
        "0.0000002"
    )


def test_per_1000_hands_needs_hands() -> None:
    with pytest.raises(ValueError):
        CostMeter().report(hands=0).per_1000_hands()


def test_a_duration_summed_from_latencies_bills_the_milliseconds_it_took() -> None:
    # Given an invocation whose calls took 0.1 s and 0.2 s (0.30000000000000004 s in floating point)
    meter = CostMeter()

    # When it is billed at 1 GB on arm64
    meter.lambda_invocation("api", seconds=0.1 + 0.2, memory_mb=1024, architecture="arm64")

    # Then 300 ms are billed, not 301
    assert meter.report().services[Service.LAMBDA].units["gb_seconds:arm64"] == Decimal("0.3")
