"""The limits the synthesized template sets (``simulation/aws/template.py``), read as the local runtime reads it."""

from __future__ import annotations

from tourney.simulation.aws.template import TemplateLimits

from infra.local.template import Template


def _template() -> Template:
    """A stack shaped as ``python app.py`` writes it (``infra/functions.py``, ``infra/throttling.py``)."""
    function = {"Runtime": "python3.12", "Handler": "app.handler", "Architectures": ["arm64"]}
    return Template(
        "Tourney",
        {
            "FunctionCoordinator": {
                "Type": "AWS::Lambda::Function",
                "Properties": {**function, "ReservedConcurrentExecutions": 50, "MemorySize": 1024},
                "Metadata": {"tourney:function": "coordinator"},
            },
            "FunctionStartTasks": {
                "Type": "AWS::Lambda::Function",
                "Properties": {**function, "ReservedConcurrentExecutions": 40, "MemorySize": 1769},
                "Metadata": {"tourney:function": "start_tasks"},
            },
            "Deployment": {"Type": "AWS::Lambda::Function", "Properties": {"MemorySize": 256}},
            "CoordinatorSource": {
                "Type": "AWS::Lambda::EventSourceMapping",
                "Properties": {
                    "FunctionName": {"Ref": "FunctionCoordinator"},
                    "BatchSize": 10,
                    "ScalingConfig": {"MaximumConcurrency": 50},
                },
            },
            "HttpApi": {"Type": "AWS::ApiGatewayV2::Api", "Properties": {"ProtocolType": "HTTP"}},
            "HttpStage": {
                "Type": "AWS::ApiGatewayV2::Stage",
                "Properties": {
                    "ApiId": {"Ref": "HttpApi"},
                    "DefaultRouteSettings": {"ThrottlingRateLimit": 500, "ThrottlingBurstLimit": 1000},
                },
            },
        },
    )


def test_each_functions_reservation_memory_and_queue_come_from_the_template() -> None:
    # Given the synthesized stack
    # When its limits are read
    limits = TemplateLimits.from_template(_template())

    # Then each of our functions has its reservation, memory, architecture and event source; CDK's helper is not ours
    coordinator, start_tasks = limits.functions["coordinator"], limits.functions["start_tasks"]
    assert (coordinator.reserved, coordinator.memory_mb, coordinator.architecture) == (50, 1024, "arm64")
    assert (coordinator.batch_size, coordinator.maximum_concurrency) == (10, 50)
    assert (start_tasks.reserved, start_tasks.memory_mb, start_tasks.batch_size) == (40, 1769, None)
    assert set(limits.functions) == {"coordinator", "start_tasks"}
    assert limits.concurrency()["coordinator"].reserved == 50


def test_each_stages_throttle_comes_from_the_template() -> None:
    # Given the synthesized stack
    # When its stages' throttles are read
    stage = TemplateLimits.from_template(_template()).stages["HTTP"]

    # Then the HTTP stage throttles at 500 a second with a burst of 1,000
    assert (stage.rate_per_second, stage.burst) == (500, 1_000)
    bucket = stage.bucket()
    assert sum(bucket.take(0.0) for _ in range(1_001)) == 1_000
