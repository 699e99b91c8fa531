#!/usr/bin/env python3
"""The CDK app: builds the tourney stack from ``infra/`` and synthesizes it offline.

``python app.py`` writes ``cdk.out/`` (or ``$CDK_OUTDIR``, as the CDK CLI sets it); ``-c sizing=large``
sets a context value as the CDK CLI's ``-c`` does (``infra/sizing.py``); cdk-nag's
AwsSolutions checks run during synth and fail it on any unacknowledged finding
(``cdk.out/validation-report.json``). ``docs/operations.md`` ("Deploying") says the rest.
"""

from __future__ import annotations

import os
import sys
import time

STARTED = time.perf_counter()
os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")

from infra.stack import build_app, cli_context  # noqa: E402  (importing aws-cdk-lib starts Node: after the setting above)


def main() -> int:
    app, _ = build_app(os.environ.get("CDK_OUTDIR", "cdk.out"), context=cli_context(sys.argv[1:]))
    assembly = app.synth()
    seconds = time.perf_counter() - STARTED
    stacks = ", ".join(stack.stack_name for stack in assembly.stacks)
    print(f"synthesized {stacks} into {assembly.directory} in {seconds:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
