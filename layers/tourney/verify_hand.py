"""``tourney verify-hand FILE``: check a hand history against the deck its table committed to at the deal.

``FILE`` is either
* a PHH file of the operator's export (``tourney simulate --phh``; one hand or
  several, ``dumps_all`` style) carrying ``_commitment``, ``_deck`` and
  ``_salts``: the whole deck must hash to the commitment, and every card the
  history shows (the hole cards written, the hands shown, the board) must sit
  where the dealing recipe puts it; or
* a player's history as ``GET /tournaments/{id}/tables/{table}/hands/{hand}``
  answers it (JSON with ``phh`` and ``fairness``): the cards revealed and the
  leaves of the others must hash to the commitment, and the board and the
  hands shown must be the revealed cards at their positions.

Exit 0 when every hand holds, else 1 with the reasons (docs/interfaces.md, 'Provably fair deals'). A file that
carries no commitment (a PHH file of ``tourney hands``, a history without its ``fairness``) is said so plainly:
there is nothing to verify its deals against.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tourney.domain import fairness
from tourney.domain.histories.phh import dealt_cards

NO_COMMITMENT = (
    "carries no commitment: nothing to check its deal against (the operator's PHH export and a player's "
    "history from the API carry one; `tourney hands` files do not)"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="a PHH export or a player's hand history (JSON)")


def run(args: argparse.Namespace) -> int:
    try:
        results = verify_file(args.file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        print(f"cannot read {args.file}: {error}", file=sys.stderr)
        return 1
    failed = {label: problems for label, problems in results.items() if problems}
    for label, problems in failed.items():
        for problem in problems:
            print(f"{label}: {problem}")
    if results and all(problems == [NO_COMMITMENT] for problems in results.values()):
        print(f"NOT VERIFIED: {args.file} {NO_COMMITMENT}")
        return 1
    if failed or not results:
        print(f"NOT VERIFIED: {len(failed)} of {len(results)} hands fail" if results else "no hand found")
        return 1
    print(f"verified: {len(results)} hand(s) dealt from the decks committed to")
    return 0


def verify_file(text: str) -> dict[str, list[str]]:
    """Each hand of the file (by label) with why it fails (empty: it holds)."""
    try:
        answer = json.loads(text)
    except json.JSONDecodeError:
        answer = None
    if isinstance(answer, dict):
        return {_label(answer): verify_player_history(answer)}
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        return {"file": [f"neither a PHH file nor a JSON hand history: {error}"]}
    single = "actions" in document
    hands = [("1", document)] if single else [(k, v) for k, v in document.items() if isinstance(v, dict)]
    return {f"[{k}] hand {v.get('hand', '?')}": verify_export(v) for k, v in hands}


def verify_export(document: Mapping[str, Any]) -> list[str]:
    """Why one PHH hand of the operator's export is not dealt from its committed deck (empty: it is)."""
    if "_commitment" not in document:
        return [NO_COMMITMENT]
    try:
        committed = str(document["_commitment"])
        deck = str(document["_deck"])
        salts = str(document["_salts"]).split(",")
        shown = dealt_cards(document)
    except (KeyError, ValueError) as error:
        return [f"not an export with the whole deck: {error}"]
    codes = [deck[i : i + 2] for i in range(0, len(deck), 2)]
    if len(codes) != fairness.DECK_SIZE or len(salts) != fairness.DECK_SIZE:
        return [f"the export has {len(codes)} cards and {len(salts)} salts, not 52 of each"]
    whole = fairness.Reveal(committed, {i: (c, s) for i, (c, s) in enumerate(zip(codes, salts, strict=True))}, {})
    return fairness.verify_reveal(whole) or fairness.verify_dealt(whole, shown.players, shown.hole, shown.board)


def verify_player_history(answer: Mapping[str, Any]) -> list[str]:
    """Why a player's history does not prove what it shows came from the committed deck (empty: it does)."""
    if not answer.get("fairness"):
        return [NO_COMMITMENT]
    try:
        revealed = fairness.Reveal.from_dict(answer["fairness"])
        document = tomllib.loads(str(answer["phh"]))
        shown = dealt_cards(document)
    except (KeyError, TypeError, ValueError, tomllib.TOMLDecodeError) as error:
        return [f"not a hand history with its fairness reveal: {error}"]
    problems = fairness.verify_reveal(revealed)
    if "_commitment" in document and document["_commitment"] != revealed.commitment:
        problems.append("the history names another commitment than its reveal")
    return problems or fairness.verify_dealt(revealed, shown.players, shown.hole, shown.board)


def _label(answer: Mapping[str, Any]) -> str:
    return f"{answer.get('tournament_id', '?')} table {answer.get('table', '?')} hand {answer.get('hand', '?')}"
