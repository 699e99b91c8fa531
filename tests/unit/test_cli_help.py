"""``tourney --help`` and every subcommand's help explain every option; ``tourney --version`` names the package's."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from importlib.metadata import version

import pytest
from tourney.cli import SUBCOMMANDS, build_parser, main


def _parsers(parser: argparse.ArgumentParser, path: str) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, f"{path} {name}")


@pytest.mark.parametrize("command", list(SUBCOMMANDS))
def test_every_option_of_every_subcommand_has_help(command: str) -> None:
    # Given the parser of one subcommand, with its arguments (and those of its own subcommands)
    parser = build_parser([command])
    (sub,) = [a.choices[command] for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    # When each of its arguments is read
    missing = [
        f"{path}: {'/'.join(action.option_strings) or action.dest}"
        for path, each in _parsers(sub, f"tourney {command}")
        for action in each._actions
        if not isinstance(action, argparse._HelpAction) and not (action.help or "").strip()
    ]
    # Then every one says what it does
    assert missing == []
    # And its help prints
    assert sub.format_help()


def test_the_top_level_help_names_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    # Given the command, When asked for help
    with pytest.raises(SystemExit) as exit_code:
        main(["--help"])
    # Then it lists every subcommand with what it does, and --version
    out = capsys.readouterr().out
    assert exit_code.value.code == 0
    for name, (_, text) in SUBCOMMANDS.items():
        assert name in out and text.split(" (")[0][:30] in out
    assert "--version" in out


def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    # Given the installed package, When asked its version
    with pytest.raises(SystemExit) as exit_code:
        main(["--version"])
    # Then it prints the package's version and exits 0
    assert exit_code.value.code == 0
    assert capsys.readouterr().out.strip() == f"tourney {version('tourney')}"
