"""Instructions per hand of the in-memory simulator, counted by callgrind: compare two versions exactly.

Wall times on this shared machine drift by a quarter within an hour, so a
change of a few per cent cannot be seen in them. Instruction counts can: they
do not depend on the load. This runs ``python -m bench.simulation`` under
``valgrind --tool=callgrind`` for the working tree and, with ``--against REV``,
for a git revision checked out in a temporary worktree (both at once, one per
core), subtracts what starting Python and importing the code costs, and prints
one JSON object: the hands played and the instructions per hand of each, and
their ratio.

    python -m bench.instructions --players 60 --seed 1 --against a18084c

About 100 seconds at 60 players (callgrind runs Python some 50 times slower).
Needs ``valgrind`` (``apt-get install valgrind``).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
IMPORTS = "import bench.simulation, tourney.simulation.memory"
"""What every run pays before its first hand: counted once per tree and subtracted."""
_COLLECTED = re.compile(r"Collected : (\d+)")


def _env(tree: Path) -> dict[str, str]:
    # A fixed hash seed: string hashes decide dict and set layouts, and so a little of the count.
    return {"PYTHONPATH": f"{tree / 'layers'}:{tree}", "PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"}


def _callgrind(tree: Path, args: list[str]) -> tuple[int, str]:
    """(instructions, stdout) of ``python args`` run in ``tree`` under callgrind."""
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: apt-get install valgrind")
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, *args],
        cwd=tree,
        env=_env(tree),
        capture_output=True,
        text=True,
        check=True,
    )
    found = _COLLECTED.search(done.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no count: {done.stderr[-500:]}")
    return int(found.group(1)), done.stdout


def per_hand(tree: Path, players: int, seed: int) -> dict[str, Any]:
    """The instructions one hand costs in ``tree``, its import cost left out."""
    # Compile the tree's bytecode first (a fresh worktree has none), so neither measured run pays for it.
    subprocess.run([sys.executable, "-c", IMPORTS], cwd=tree, env=_env(tree), check=True)
    run = ["-m", "bench.simulation", "--players", str(players), "--seed", str(seed)]
    total, out = _callgrind(tree, run)
    imports, _ = _callgrind(tree, ["-c", IMPORTS])
    hands = int(json.loads(out)["hands"])
    return {"hands": hands, "instructions": total - imports, "per_hand": round((total - imports) / hands)}


def compare(players: int, seed: int, against: str | None) -> dict[str, Any]:
    if against is None:
        return {"players": players, "seed": seed, "tree": per_hand(ROOT, players, seed)}
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch) / "base"
        subprocess.run(["git", "worktree", "add", "--detach", str(base), against], cwd=ROOT, check=True)
        try:
            with ThreadPoolExecutor(2) as pool:
                mine = pool.submit(per_hand, ROOT, players, seed)
                theirs = pool.submit(per_hand, base, players, seed)
                tree, revision = mine.result(), theirs.result()
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=True)
    return {
        "players": players,
        "seed": seed,
        "tree": tree,
        against: revision,
        "ratio_per_hand": round(tree["per_hand"] / revision["per_hand"], 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", help="a git revision to compare the working tree with")
    args = parser.parse_args()
    print(json.dumps(compare(args.players, args.seed, args.against)))


if __name__ == "__main__":
    main()
