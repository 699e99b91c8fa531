"""A treys-based ``tourney.domain.evaluator`` for tests, used only while the real one is missing.

The engine calls ``tourney.domain.evaluator.evaluate7`` (higher is stronger,
equal is a tie). ``ensure_evaluator()`` installs this stand-in under that name
when the module cannot be imported, so the hand's tests can run before it lands.
"""

from __future__ import annotations

import importlib
import sys
import types

from tourney.domain.cards import card_str
from treys import Card as TreysCard
from treys import Evaluator

_TREYS = [TreysCard.new(card_str(c)) for c in range(52)]
_EVALUATOR = Evaluator()
_WORST = 7463


def evaluate7(c0: int, c1: int, c2: int, c3: int, c4: int, c5: int, c6: int) -> int:
    t = _TREYS
    return _WORST - _EVALUATOR.evaluate([t[c0], t[c1]], [t[c2], t[c3], t[c4], t[c5], t[c6]])


def evaluate(cards: list[int]) -> int:
    t = _TREYS
    return _WORST - _EVALUATOR.evaluate([t[c] for c in cards[:2]], [t[c] for c in cards[2:]])


def ensure_evaluator() -> bool:
    """Install the stand-in if the real evaluator is missing; True when the real one is used."""
    try:
        importlib.import_module("tourney.domain.evaluator")
        return True
    except ImportError:
        module = types.ModuleType("tourney.domain.evaluator")
        module.evaluate7 = evaluate7  # type: ignore[attr-defined]
        module.evaluate = evaluate  # type: ignore[attr-defined]
        sys.modules["tourney.domain.evaluator"] = module
        return False
