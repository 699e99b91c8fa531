"""A player's display name (docs/interfaces.md, ``PUT /me/profile``): what seats, standings, places and chat show.

3 to 20 characters: letters, digits, ``_`` and ``-``, and spaces inside the name (none at either end, never
two in a row). Unique regardless of case: ``name_key`` is the name as its uniqueness is judged.
"""

from __future__ import annotations

from tourney.domain.errors import InvalidDisplayName

MIN_LENGTH, MAX_LENGTH = 3, 20


def display_name(raw: object) -> str:
    """``raw`` as a display name, or ``InvalidDisplayName`` (422) saying why.

    >>> display_name("Ann Marie-2")
    'Ann Marie-2'
    >>> display_name(" ann")
    Traceback (most recent call last):
    ...
    tourney.domain.errors.InvalidDisplayName: a display name has no space at either end
    """
    if not isinstance(raw, str):
        raise InvalidDisplayName("a display name is a string")
    if not MIN_LENGTH <= len(raw) <= MAX_LENGTH:
        raise InvalidDisplayName(f"a display name has {MIN_LENGTH} to {MAX_LENGTH} characters, not {len(raw)}")
    if raw != raw.strip(" "):
        raise InvalidDisplayName("a display name has no space at either end")
    if "  " in raw:
        raise InvalidDisplayName("a display name has no two spaces in a row")
    if not all(c.isalnum() or c in "_- " for c in raw) or not raw.isprintable():
        raise InvalidDisplayName("a display name has letters, digits, '_', '-' and spaces inside, nothing else")
    return raw


def name_key(name: str) -> str:
    """The name as its uniqueness is judged: regardless of case."""
    return name.casefold()
