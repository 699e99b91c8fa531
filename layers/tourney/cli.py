"""The ``tourney`` command: a thin front over the product's parts.

Each subcommand lives in its own module, imported only when it runs, and
exposes ``add_arguments(parser)`` and ``run(args) -> int``:

- ``hands``     -> ``tourney.simulation.random_hands`` (random-action hands, PHH out)
- ``simulate``  -> ``tourney.simulation.command`` (a whole tournament with bots)
- ``bench``     -> ``bench.command`` (engine and other benchmarks)
- ``local``     -> ``infra.local.command`` (the local stack)
- ``demo``      -> ``tourney.simulation.demo`` (what ``make demo`` runs)
- ``verify-hand`` -> ``tourney.verify_hand`` (a history against its deck's commitment)
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import PackageNotFoundError, version

SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "hands": ("tourney.simulation.random_hands", "play independent random-action hands and write PHH"),
    "simulate": ("tourney.simulation.command", "run one whole tournament with bot players"),
    "chaos": ("tourney.simulation.chaos", "many small tournaments under injected faults, invariants checked"),
    "bench": ("bench.command", "benchmarks (engine, balancing, ...)"),
    "local": ("infra.local.command", "the local stack: up, token"),
    "demo": ("tourney.simulation.demo", "the demo that `make demo` runs"),
    "verify-hand": ("tourney.verify_hand", "check a hand history against the deck committed to at the deal"),
}


def whole_number(least: int, most: int | None = None, *, what: str = "") -> Callable[[str], int]:
    """An option's type: an int from ``least`` (to ``most``), else argparse's error (naming ``what`` it counts)."""
    refusal = f"{what} must be" if what else "must be"
    bounds = f"{least} or more" if most is None else f"{least} to {most}"

    def parse(text: str) -> int:
        value = int(text)
        if value < least or (most is not None and value > most):
            raise argparse.ArgumentTypeError(f"{refusal} {bounds}, got {value}")
        return value

    return parse


def _load(module_name: str):  # type: ignore[no-untyped-def]
    return importlib.import_module(module_name)


def package_version() -> str:
    """The installed package's version (``pyproject.toml``)."""
    try:
        return version("tourney")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def build_parser(argv: Sequence[str]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tourney",
        description="The serverless backend of an online poker room's tournaments: simulate, check and run it.",
        epilog="`tourney COMMAND --help` explains each command's options.",
    )
    parser.add_argument(
        "--version", action="version", version=f"tourney {package_version()}", help="print the version and exit"
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", help="one of:")
    wanted = argv[0] if argv else None
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        sub = subparsers.add_parser(name, help=help_text, description=help_text)
        sub.set_defaults(_module=module_name)
        if name == wanted:  # import only the subcommand being run
            _load(module_name).add_arguments(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(args_list)
    args = parser.parse_args(args_list)
    result: int = _load(args._module).run(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
