"""Pokerkit as an oracle: replay one of our PHH hands STRICTLY and return pokerkit's finishing stacks.

Pokerkit's own ``HandHistory`` replay repairs a file silently (it fills in
missing actions and mucks every hand without ``sm`` lines), so it is no
oracle (STACK-NOTES.md). Here the state is built from the file's fields in
tournament mode, with only the chip movements automated (antes, blinds, bet
collection, killing beaten hands, pushing and pulling chips); every dealing,
showing and betting line is applied exactly once with
``pokerkit.notation.parse_action``, a card is burnt before each board line,
and the hand must be over when the lines run out. Pokerkit never checks
``finishing_stacks``: the caller compares them.

With real hole cards in the deal lines, each showdown line is also checked
against pokerkit's judgement: a hand is shown if and only if it can still win
something (``State.can_win_now``), except in an all-in showdown where all show.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from pokerkit import Automation, Card, Mode, NoLimitTexasHoldem, StandardHighHand, State
from pokerkit.notation import parse_action

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


class OracleMismatch(AssertionError):
    """Pokerkit refused a line, or the hand did not end where the file ends."""


def replay_strictly(text: str, *, check_showdown: bool = False, finished: bool = True) -> State:
    """The finished pokerkit ``State`` after applying every line of one PHH document once.

    ``finished=False`` replays a hand still in play (the same strictness, line by line) and returns
    pokerkit's state where the file stops, to compare what pokerkit lets the next player do.
    """
    fields = tomllib.loads(text)
    return replay_fields(fields, check_showdown=check_showdown, finished=finished)


@contextmanager
def _memoized_hand_evaluation() -> Iterator[None]:
    """Pokerkit evaluates every player's hand again for each player it asks about (O(n²) per showdown);
    remember each result for the duration of one replay. Pokerkit is left as it was afterwards."""
    seen: dict[tuple[Any, ...], Any] = {}
    evaluate = StandardHighHand.from_game

    def from_game(cls: type[StandardHighHand], hole_cards: Any, board_cards: Any = ()) -> Any:
        key = (Card.clean(hole_cards), Card.clean(board_cards))
        if key not in seen:
            seen[key] = evaluate(*key)
        return seen[key]

    StandardHighHand.from_game = classmethod(from_game)  # type: ignore[method-assign, assignment]
    try:
        yield
    finally:
        del StandardHighHand.from_game


def replay_fields(fields: dict[str, Any], *, check_showdown: bool = False, finished: bool = True) -> State:
    with _memoized_hand_evaluation():
        return _replay(fields, check_showdown, finished)


def _replay(fields: dict[str, Any], check_showdown: bool, finished: bool) -> State:
    if fields["variant"] != "NT":
        raise OracleMismatch(f"variant {fields['variant']!r} is not NT")
    game = NoLimitTexasHoldem(
        AUTOMATIONS,
        bool(fields.get("ante_trimming_status", False)),
        fields["antes"],
        fields["blinds_or_straddles"],
        fields["min_bet"],
        mode=Mode.TOURNAMENT,
    )
    if any(line.startswith("d dh") and "?" in line for line in fields["actions"]):
        check_showdown = False  # pokerkit cannot judge hidden cards
    stacks = fields["starting_stacks"]
    state = game(stacks, len(stacks))
    for number, line in enumerate(fields["actions"], start=1):
        try:
            if line.startswith("d db"):
                state.burn_card("??")
            elif check_showdown and " sm" in line:
                _check_show_or_muck(state, line)
            parse_action(state, line)
        except (ValueError, UserWarning) as error:
            raise OracleMismatch(f"line {number} {line!r} refused: {error}") from error
    if finished and state.status:
        raise OracleMismatch(f"the hand is not over after the last line; pokerkit expects more: {fields['actions']}")
    return state


def _check_show_or_muck(state: State, line: str) -> None:
    words = line.split("#")[0].split()
    index = int(words[0][1:]) - 1
    shows = len(words) == 3
    if state.all_in_status:
        if not shows:
            raise OracleMismatch(f"{line!r}: every hand is shown in an all-in showdown")
        return
    if shows != state.can_win_now(index):
        raise OracleMismatch(f"{line!r}: pokerkit says can_win_now={state.can_win_now(index)}")


def finishing_stacks(text: str, *, check_showdown: bool = False) -> list[int]:
    """Pokerkit's finishing stacks for one PHH document, replayed strictly."""
    return list(replay_strictly(text, check_showdown=check_showdown).stacks)
