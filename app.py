#!/usr/bin/env python3
"""The CDK app: builds the tourney stack from ``infra/`` and synthesizes it offline.

``python app.py`` writes ``cdk.out/`` (or ``$CDK_OUTDIR``, as the CDK CLI sets it); cdk-nag's
AwsSolutions checks run during synth and fail it on any unacknowledged finding.
"""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")

from infra.stack import build_app


def main() -> int:
    began = time.perf_counter()
    app, _ = build_app(os.environ.get("CDK_OUTDIR", "cdk.out"))
    assembly = app.synth()
    print(
        f"synthesized {', '.join(s.stack_name for s in assembly.stacks)} into {assembly.directory} "
        f"in {time.perf_counter() - began:.1f} s",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
