"""The functions' settings are the one configuration source, and every one of them is read.

``entrypoints/settings.py`` is the only reader of the environment: a field nobody reads is a
variable CDK sets for nothing, and a table the DynamoDB models store in but the settings do not
name would be configured from somewhere else.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tourney.adapters.dynamo.schema import ALL_TABLES
from tourney.entrypoints.settings import DYNAMODB, Settings

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = ROOT / "layers" / "tourney" / "entrypoints" / "settings.py"
SOURCES = [
    p
    for folder in ("layers", "functions")
    for p in (ROOT / folder).rglob("*.py")
    if p != SETTINGS and "simulation" not in p.parts
]


def readers(name: str) -> list[str]:
    """Where ``name`` is read from the settings: ``settings().name``, ``config.name``; in settings.py, ``self.name``."""
    elsewhere = re.compile(rf"\b(settings\(\)|settings|config)\.{name}\b")
    found = [str(p.relative_to(ROOT)) for p in SOURCES if elsewhere.search(p.read_text())]
    if re.search(rf"\bself\.{name}\b", SETTINGS.read_text()):
        found.append("settings.py")
    return found


@pytest.mark.parametrize("field", sorted(Settings.model_fields))
def test_every_setting_is_read(field: str) -> None:
    # Given a field of the settings, then a function, an adapter or a property that is read reads it
    read = readers("dynamodb_environ") if field in DYNAMODB else readers(field)
    assert read, f"Settings.{field} is read by nothing"


def test_the_settings_name_every_table_the_dynamodb_models_store_in() -> None:
    variables = {field.alias for field in Settings.model_fields.values()}
    assert {schema.env_var for schema in ALL_TABLES} <= variables


def test_only_the_settings_read_the_environment() -> None:
    # Given every module a function ships (the simulation, which no function imports, aside)
    reading = re.compile(r"\bos\.(environ|getenv)\b")
    # Then none but the settings reads the environment: the DynamoDB models take theirs from the composition root
    assert [str(p.relative_to(ROOT)) for p in SOURCES if reading.search(p.read_text())] == []
