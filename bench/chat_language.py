"""The chat's English-only check (docs/rules.md, rule 18) on a labelled sample of short table-chat lines.

``python -m bench.chat_language`` prints the import and first-call cost of the
detector (``tourney.adapters.language``), then its verdicts on :data:`SAMPLE`:
English lines and lines the detector cannot place must be accepted, lines in
another language refused. Results in docs/performance.md ("Chat language check").
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

#: (line, expected): "en" for English (accepted), "?" for chat a detector cannot place (accepted), else refused.
SAMPLE: tuple[tuple[str, str], ...] = (
    ("gg", "?"),
    ("nh", "?"),
    ("ty", "?"),
    ("gl", "?"),
    ("wp", "?"),
    ("lol", "?"),
    ("vnh", "?"),
    ("gg wp", "?"),
    ("ok", "?"),
    ("omg", "?"),
    ("nice hand", "en"),
    ("good luck everyone", "en"),
    ("well played sir", "en"),
    ("wow what a river", "en"),
    ("ship it", "en"),
    ("I can't believe that card came", "en"),
    ("any tips for the final table?", "en"),
    ("thanks, you too", "en"),
    ("brb coffee", "en"),
    ("see you at the next table", "en"),
    ("that was a sick bluff", "en"),
    ("how long is this level?", "en"),
    ("good game everybody, see you next time", "en"),
    ("unlucky, you played it well", "en"),
    ("the blinds are going up fast", "en"),
    ("hello from Canada", "en"),
    ("congrats on the win", "en"),
    ("I need to stop playing so many hands", "en"),
    ("my internet dropped, sorry", "en"),
    ("who is the chip leader now?", "en"),
    ("hi all", "en"),
    ("hello all", "en"),
    ("hi everyone", "en"),
    ("nice one", "en"),
    ("well done", "en"),
    ("hey guys", "en"),
    ("bad beat", "en"),
    ("all in", "en"),
    ("good one", "en"),
    ("so sick", "en"),
    ("hola amigos como estan", "es"),
    ("buena suerte a todos", "es"),
    ("que mala suerte tengo hoy", "es"),
    ("merci beaucoup", "fr"),
    ("bonne chance à tous", "fr"),
    ("je ne comprends pas pourquoi il a suivi", "fr"),
    ("gut gespielt", "de"),
    ("danke schön, euch auch", "de"),
    ("ich habe heute kein Glück", "de"),
    ("ciao a tutti", "it"),
    ("che fortuna incredibile", "it"),
    ("obrigado pessoal", "pt"),
    ("boa sorte a todos", "pt"),
    ("veel geluk allemaal", "nl"),
    ("dobra gra, powodzenia", "pl"),
    ("привет всем", "ru"),
    ("хорошая игра", "ru"),
    ("iyi oyunlar arkadaşlar", "tr"),
    ("lycka till alla", "sv"),
    ("buena mano", "es"),
    ("obrigado", "pt"),
    ("bien joué", "fr"),
    ("大家好", "zh"),
    ("ナイスハンド", "ja"),
    ("좋은 게임", "ko"),
)


def accepted(expected: str) -> bool:
    return expected in ("en", "?")


def run() -> dict[str, object]:
    """Import cost in a fresh interpreter, first-call cost, and the verdicts on the sample."""
    probe = (
        "import time; t=time.perf_counter(); import tourney.adapters.language as l; a=time.perf_counter();"
        "l.language_of('warm up'); b=time.perf_counter(); print(a-t, b-a)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    from tourney.adapters.language import language_of

    language_of("warm up")
    wrong: list[tuple[str, str, str | None]] = []
    started = time.perf_counter()
    for line, expected in SAMPLE:
        found = language_of(line)
        if (found in (None, "en")) != accepted(expected):
            wrong.append((line, expected, found))
    per_line = (time.perf_counter() - started) / len(SAMPLE)
    english = sum(1 for _, e in SAMPLE if accepted(e))
    return {
        "lines": len(SAMPLE),
        "accepted_expected": english,
        "refused_expected": len(SAMPLE) - english,
        "correct": len(SAMPLE) - len(wrong),
        "accuracy": round((len(SAMPLE) - len(wrong)) / len(SAMPLE), 3),
        "wrong": wrong,
        "import_seconds": round(float(out[0]), 3),
        "first_call_seconds": round(float(out[1]), 3),
        "per_line_ms": round(per_line * 1000, 3),
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2, ensure_ascii=False))
