"""The app synthesizes offline, passes cdk-nag's AwsSolutions checks and cfn-lint."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from infra import wiring
from infra.stack import STACK_NAME
from tests.infra.template import Synthesized

ROOT = Path(__file__).resolve().parents[2]


def test_synth_is_offline_and_quick(synthesized: Synthesized) -> None:
    # Given the app built from infra/ (no AWS account, no Docker, no npm CLI)
    # Then one synth writes the template in well under a minute (the dependency layer is cached)
    assert (synthesized.outdir / f"{STACK_NAME}.template.json").is_file()
    assert synthesized.seconds < 60, synthesized.seconds


def test_cdk_nag_passes_with_every_acknowledgement_justified(synthesized: Synthesized) -> None:
    (nag,) = [r for r in synthesized.report["pluginReports"] if r["pluginName"] == "AwsSolutions"]
    assert nag["conclusion"] == "success"
    assert nag["violations"] == []
    for suppressed in nag["suppressedViolations"]:
        # each acknowledgement has a real reason, and IAM5 is acknowledged by its own id, never wholesale
        assert len(suppressed["reason"]) >= 40, suppressed["ruleName"]
        if suppressed["ruleName"].startswith("AwsSolutions-IAM5"):
            assert suppressed["acknowledgedId"] == f"AwsSolutions::{suppressed['ruleName']}"
            assert "[Resource::" in suppressed["ruleName"] or "[Action::" in suppressed["ruleName"]


def test_no_wildcard_is_acknowledged_beyond_the_ones_aws_requires(synthesized: Synthesized) -> None:
    (nag,) = [r for r in synthesized.report["pluginReports"] if r["pluginName"] == "AwsSolutions"]
    wildcards = {s["ruleName"] for s in nag["suppressedViolations"] if s["ruleName"].startswith("AwsSolutions-IAM5")}
    assert wildcards == {
        "AwsSolutions-IAM5[Resource::*]",  # X-Ray, Step Functions log delivery
        "AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:execute-api:<AWS::Region>:<AWS::AccountId>:"
        f"<WebSocketApi>/{wiring.WEBSOCKET_STAGE}/*/@connections/*]",
        "AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:"
        "schedule/<ScheduleGroupStarts>/*]",
        "AwsSolutions-IAM5[Resource::<FunctionStartTasks.Arn>:*]",
        "AwsSolutions-IAM5[Resource::<FunctionRecoveryTasks.Arn>:*]",
        # CDK's BucketDeployment (the web client's files), on its own role only (tests/infra/test_web_hosting.py)
        "AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]",
        "AwsSolutions-IAM5[Resource::<WebBucket.Arn>/*]",
        "AwsSolutions-IAM5[Action::s3:GetObject*]",
        "AwsSolutions-IAM5[Action::s3:GetBucket*]",
        "AwsSolutions-IAM5[Action::s3:List*]",
        "AwsSolutions-IAM5[Action::s3:DeleteObject*]",
        "AwsSolutions-IAM5[Action::s3:Abort*]",
    }


def test_cfn_lint_passes(synthesized: Synthesized) -> None:
    cfn_lint = shutil.which("cfn-lint", path=str(Path(sys.executable).parent)) or "cfn-lint"
    result = subprocess.run(
        [cfn_lint, "--ignore-checks", "W3005", "--", str(synthesized.outdir / f"{STACK_NAME}.template.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_cdk_json_runs_app_py_into_cdk_out() -> None:
    import json

    config = json.loads((ROOT / "cdk.json").read_text())
    assert config["app"] == ".venv/bin/python app.py"
    assert config["output"] == "cdk.out"


def test_a_missing_function_folder_fails_with_a_clear_message(tmp_path: Path) -> None:
    import pytest

    from infra.functions import MissingFunctionCode, require_function_code

    # Given a checkout where one declared function has no code yet
    for spec in wiring.FUNCTIONS:
        if spec.name != "watchdog":
            (tmp_path / spec.code_path).mkdir(parents=True)
            (tmp_path / spec.code_path / "app.py").write_text("def handler(event, context): ...\n")
    # Then the synth stops before building anything, naming the folder
    with pytest.raises(MissingFunctionCode, match="functions/watchdog"):
        require_function_code(tmp_path)
    require_function_code(ROOT)  # the repository has them all


def test_the_wiring_is_consistent() -> None:
    wiring.check()
    assert {s.name for s in wiring.FUNCTIONS} == {
        "api", "admin", "ws", "start", "start_tasks", "timeouts", "coordinator", "sweeper", "watchdog", "recovery_tasks"
    }  # fmt: skip
