"""The chat's English-only check (docs/rules.md, rule 18): py3langid, offline, loaded on the chat path only.

:func:`language_of` answers the language a line is in, or None when it cannot
place it (short chat such as "gg" or "nh", which the room accepts). The model
(``py3langid``, langid.py's naive Bayes over byte n-grams, 97 languages, shipped
in the wheel) is loaded at the first call and kept for the container's life:
importing this module costs nothing, the first call about two seconds
(docs/performance.md, "Chat language check"; ``bench/chat_language.py``).

The model ranks only :data:`LANGUAGES` (the languages a room's players are
likely to write; fewer candidates give short lines sharper probabilities). A
line is placed in a language only when it has at least :data:`MIN_LETTERS`
letters (a letter outside the Latin scripts, such as a CJK ideograph, counts
two) and the model's normalized probability for its first language reaches
:data:`CONFIDENCE` (:data:`SHORT_CONFIDENCE` for one or two words); otherwise
it is unplaced, and accepted.
"""

from __future__ import annotations

import functools
from typing import Any

LANGUAGES = (
    "en", "es", "fr", "de", "it", "pt", "nl", "pl", "ru", "tr", "sv", "zh", "ja", "ko",
    "ro", "cs", "hu", "da", "no", "fi", "uk", "ar", "el", "he", "hi", "id", "vi", "th",
)  # fmt: skip
CONFIDENCE = 0.6
SHORT_CONFIDENCE = 0.8
"""For a line of one or two words ("hi all" reads 0.67 Italian): the model needs more to place it."""
MIN_LETTERS = 4


@functools.cache
def _identifier() -> Any:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier  # about 2 s: numpy and the model

    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    identifier.set_languages(list(LANGUAGES))
    return identifier


def _letters(text: str) -> int:
    return sum((2 if ord(c) > 0x2FF else 1) for c in text if c.isalpha())


def language_of(text: str) -> str | None:
    """ISO 639-1 code of the line's language, or None when it cannot be placed."""
    if _letters(text) < MIN_LETTERS:
        return None
    language, probability = _identifier().classify(text)
    needed = SHORT_CONFIDENCE if len(text.split()) <= 2 else CONFIDENCE
    return str(language) if float(probability) >= needed else None
