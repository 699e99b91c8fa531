from pathlib import Path

import pytest
from tourney.cli import main


def test_demo_plays_a_tournament_and_writes_its_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Given the demo with a small field
    code = main(["demo", "--via", "memory", "--players", "12", "--seed", "3", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    # Then it finishes, shows the prizes and the last hand, and leaves the files it names
    assert code == 0
    assert "finished:" in out and "*** SUMMARY ***" in out and "conserved:" in out
    assert (tmp_path / "report.json").exists() and (tmp_path / "last-hand.txt").exists()
    assert list((tmp_path / "phh").glob("*.phh"))
