"""Synthesizing ``cdk.out`` for the local runtime, when it is missing or older than the CDK sources."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from pathlib import Path

from infra.local.template import TemplateError

log = logging.getLogger("infra.local")


TABLES_DECLARATION = Path("layers/tourney/adapters/dynamo/schema.py")
"""The tables, their keys and indexes, which ``infra/tables.py`` builds the stack's tables from."""


def cdk_sources(repo_root: Path) -> list[Path]:
    """The files a synth depends on: ``app.py``, ``cdk.json``, the tables' declaration, and ``infra/`` less the
    local runtime."""
    candidates = (repo_root / "app.py", repo_root / "cdk.json", repo_root / TABLES_DECLARATION)
    sources = [p for p in candidates if p.exists()]
    infra_dir = repo_root / "infra"
    if infra_dir.is_dir():
        sources += [p for p in infra_dir.rglob("*.py") if "local" not in p.relative_to(infra_dir).parts[:1]]
    return sources


def needs_synth(cdk_out: Path, repo_root: Path) -> bool:
    manifest = cdk_out / "manifest.json"
    if not manifest.exists():
        return True
    sources = cdk_sources(repo_root)
    return bool(sources) and max(p.stat().st_mtime for p in sources) > manifest.stat().st_mtime


def synthesize(cdk_out: Path, repo_root: Path) -> None:
    """``python app.py`` into ``cdk_out`` (offline, no npm CLI)."""
    app = repo_root / "app.py"
    if not app.exists():
        raise TemplateError(f"{cdk_out} is missing and there is no app.py to synthesize it")
    env = {**os.environ, "JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION": "20", "CDK_OUTDIR": str(cdk_out)}
    log.info("synthesizing %s (python app.py)...", cdk_out)
    started = time.monotonic()
    subprocess.run([sys.executable, str(app)], cwd=repo_root, env=env, check=True)
    log.info("synthesized in %.1f s", time.monotonic() - started)


def ensure_synthesized(cdk_out: Path, repo_root: Path) -> None:
    """Synthesize ``cdk_out`` if it is missing or stale (``CalledProcessError`` if the synth fails)."""
    if needs_synth(cdk_out, repo_root):
        synthesize(cdk_out, repo_root)
