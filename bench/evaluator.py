"""Seven-card evaluations per second: ours against treys, side by side in one process.

Both evaluators get the same seeded random deals, converted to each one's card
format before any timing. Each repetition times one full pass over the deals
with a plain ``for`` loop (the same loop shape for both); repetitions alternate
between the two evaluators, so a busy machine slows both alike, and the
reported figure is the MEDIAN pass of each.

    python -m bench.evaluator [hands]
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from collections.abc import Callable

from tourney.domain.cards import card_str
from tourney.domain.evaluator import evaluate7
from treys import Card as TreysCard
from treys import Evaluator as TreysEvaluator

Deal = tuple[int, int, int, int, int, int, int]


def seeded_deals(seed: int, hands: int) -> list[Deal]:
    """``hands`` random seven-card deals (two hole cards first, then the board)."""
    rng = random.Random(seed)
    deals: list[Deal] = []
    for _ in range(hands):
        a, b, c, d, e, f, g = rng.sample(range(52), 7)
        deals.append((a, b, c, d, e, f, g))
    return deals


def _time_ours(deals: list[Deal]) -> float:
    ev = evaluate7
    start = time.perf_counter()
    for a, b, c, d, e, f, g in deals:
        ev(a, b, c, d, e, f, g)
    return time.perf_counter() - start


def _time_treys(deals: list[tuple[list[int], list[int]]], evaluator: TreysEvaluator) -> float:
    ev = evaluator.evaluate
    start = time.perf_counter()
    for hand, board in deals:
        ev(hand, board)
    return time.perf_counter() - start


def measure_evaluators(seed: int = 1, hands: int = 200_000, repeats: int = 5) -> dict[str, float]:
    """Evaluations per second of ``evaluate7`` and of treys (median of ``repeats`` passes each).

    Returns ``ours_evals_per_s``, ``treys_evals_per_s`` (rounded to the unit)
    and ``evals_ratio`` (ours / treys, two decimals).
    """
    deals = seeded_deals(seed, hands)
    treys_ints = [TreysCard.new(card_str(c)) for c in range(52)]
    treys_deals = [([treys_ints[c] for c in deal[:2]], [treys_ints[c] for c in deal[2:]]) for deal in deals]
    treys = TreysEvaluator()
    runs: dict[str, list[float]] = {"ours": [], "treys": []}
    passes: list[tuple[str, Callable[[], float]]] = [
        ("ours", lambda: _time_ours(deals)),
        ("treys", lambda: _time_treys(treys_deals, treys)),
    ]
    for _ in range(repeats):
        for name, run in passes:
            runs[name].append(run())
    ours = hands / statistics.median(runs["ours"])
    theirs = hands / statistics.median(runs["treys"])
    return {
        "ours_evals_per_s": float(round(ours)),
        "treys_evals_per_s": float(round(theirs)),
        "evals_ratio": round(ours / theirs, 2),
    }


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    print(json.dumps(measure_evaluators(hands=count)))
