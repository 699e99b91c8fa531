"""The ten functions: runtime, architecture, handler, code, layers, environment; the layers' contents."""

from __future__ import annotations

from pathlib import Path

import pytest

from infra import wiring
from infra.naming import logical_id
from tests.infra.template import Synthesized

ROOT = Path(__file__).resolve().parents[2]
SPECS = wiring.FUNCTIONS


def test_ten_functions_each_declared_once(synthesized: Synthesized) -> None:
    functions = synthesized.of_app("AWS::Lambda::Function")
    assert set(functions) == {f"Function{logical_id(s.name)}" for s in SPECS}
    assert len(SPECS) == 10


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_function_runtime_handler_layers_and_environment(synthesized: Synthesized, spec: wiring.FunctionSpec) -> None:
    name, function = synthesized.with_metadata("tourney:function", spec.name)
    properties = function["Properties"]
    assert name == f"Function{logical_id(spec.name)}"
    assert properties["Runtime"] == "python3.12"
    assert properties["Architectures"] == ["arm64"]
    assert properties["Handler"] == "app.handler"
    assert properties["TracingConfig"] == {"Mode": "Active"}
    assert properties["Timeout"] == spec.timeout_seconds
    # the code is functions/<name>, as an asset the local runtime can find
    assert function["Metadata"]["tourney:code"] == f"functions/{spec.name}"
    asset = synthesized.outdir / function["Metadata"]["aws:asset:path"]
    source = ROOT / "functions" / spec.name
    assert _files(asset) == _files(source)
    assert "def handler(" in (asset / "app.py").read_text()
    # the dependency layer, then the shared code
    layers = synthesized.of_app("AWS::Lambda::LayerVersion")
    by_role = {layer["Metadata"]["tourney:layer"]: f"<{n}>" for n, layer in layers.items()}
    assert [f"<{ref['Ref']}>" for ref in properties["Layers"]] == [by_role["dependencies"], by_role["shared"]]
    # exactly the environment variable names the wiring declares
    assert tuple(sorted(properties["Environment"]["Variables"])) == spec.environment_names()
    assert properties["Environment"]["Variables"]["POWERTOOLS_METRICS_NAMESPACE"] == "Tourney"


def _files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts}


def test_table_environment_variables_name_the_right_tables(synthesized: Synthesized) -> None:
    _, api = synthesized.with_metadata("tourney:function", "api")
    variables = api["Properties"]["Environment"]["Variables"]
    for table in wiring.TABLES:
        if table.logical_name in wiring.FUNCTIONS_BY_NAME["api"].tables:
            assert variables[table.env_var] == {"Ref": f"Table{logical_id(table.logical_name)}"}


def test_each_function_has_its_own_role_and_log_group(synthesized: Synthesized) -> None:
    functions = synthesized.of_app("AWS::Lambda::Function").values()
    roles = [f["Properties"]["Role"]["Fn::GetAtt"][0] for f in functions]
    log_groups = [f["Properties"]["LoggingConfig"]["LogGroup"]["Ref"] for f in functions]
    assert len(set(roles)) == len(roles) == len(SPECS)
    assert len(set(log_groups)) == len(SPECS)


def test_the_layers_are_arm64_python312(synthesized: Synthesized) -> None:
    for layer in synthesized.of_app("AWS::Lambda::LayerVersion").values():
        assert layer["Properties"]["CompatibleRuntimes"] == ["python3.12"]
        assert layer["Properties"]["CompatibleArchitectures"] == ["arm64"]


def _layer_folder(synthesized: Synthesized, role: str) -> Path:
    (layer,) = [
        r for r in synthesized.of_app("AWS::Lambda::LayerVersion").values() if r["Metadata"]["tourney:layer"] == role
    ]
    return synthesized.outdir / str(layer["Metadata"]["aws:asset:path"])


def test_shared_layer_holds_the_tourney_package_under_python(synthesized: Synthesized) -> None:
    folder = _layer_folder(synthesized, "shared")
    assert (folder / "python" / "tourney" / "__init__.py").is_file()
    assert (folder / "python" / "tourney" / "domain" / "evaluator.py").is_file()
    assert not [p for p in folder.rglob("*.pyc") if ".cpython-312." not in p.name], "only the runtime's bytecode"


def test_dependency_layer_is_built_for_arm64_without_boto3(synthesized: Synthesized) -> None:
    site = _layer_folder(synthesized, "dependencies") / "python"
    for package in ("pynamodb", "pydantic", "pydantic_core", "aws_lambda_powertools", "jwt", "aws_xray_sdk"):
        assert (site / package).is_dir(), package
    for left_out in ("boto3", "botocore", "s3transfer"):
        assert not (site / left_out).exists(), left_out
    native = list((site / "pydantic_core").glob("_pydantic_core.cpython-312-aarch64-linux-gnu.so"))
    assert native, "pydantic_core must be the cp312 aarch64 wheel"
