"""The operators' dashboard and the alarms (docs/operations.md says what each one means).

Alarms publish to one SNS topic (``AlarmTopic``; subscribe the on-call to it):

- ``<Queue>DeadLetters``: a message reached a dead-letter queue (depth >= 1);
- ``<Queue>OldestMessage``: a queue's oldest message is older than its threshold;
- ``<Function>Errors``: a function failed (uncaught exception or timeout) in 5 minutes;
- ``<Function>Throttles``: Lambda refused to run a function (its reserved concurrency was full);
- ``Table<Table>Throttles``, ``Table<Table>SystemErrors``: DynamoDB throttled a table's reads or writes,
  or failed a request on its side (HTTP 500);
- ``<Workflow>Failures``: a workflow execution failed, timed out or was aborted;
- ``HttpApi5xx``: the HTTP API answered 5xx (bad input never does);
- ``HttpApiLatencyP99``: the HTTP API's slowest 1 % of answers took over 2 s for 15 minutes;
- ``WebSocketErrors``: the WebSocket API could not run a message's function, or failed itself;
- ``WatchdogHeartbeat``: the watchdog did not finish a run in 5 minutes (no data is an alarm);
- ``TournamentsTerminated``: the watchdog terminated a stalled tournament (recovery runs).
- ``WatchFailures``: the watchdog's check of a tournament raised (it went on with the others).

Each alarm's description links to its section of the runbook (``RUNBOOK_URL``, docs/operations.md).

The dashboard ``Tourney-Operators`` shows the custom metrics (namespace ``Tourney``, dimension
``service=tourney``, emitted with Powertools Metrics: ``infra.wiring.METRICS``), errors,
queue ages and workflow outcomes.
"""

from __future__ import annotations

from collections.abc import Mapping

from aws_cdk import Duration, Stack
from aws_cdk import aws_apigatewayv2 as apigw
from aws_cdk import aws_cloudwatch as cw
from aws_cdk import aws_cloudwatch_actions as actions
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sqs as sqs
from aws_cdk import aws_stepfunctions as sfn
from constructs import Construct

from infra import wiring
from infra.naming import logical_id

MINUTE = Duration.minutes(1)
FIVE_MINUTES = Duration.minutes(5)

DOCS_URL = "https://github.com/tourney/tourney/blob/main/docs"
"""The repository's ``docs/`` folder on the web: every alarm links to a section of its ``operations.md``."""
RUNBOOK_URL = f"{DOCS_URL}/operations.md"

HTTP_P99_MILLISECONDS = 2000
"""The HTTP API's p99 latency that alarms, for 3 periods of 5 minutes (docs/performance.md has the figures)."""

DYNAMODB_OPERATIONS = (
    dynamodb.Operation.GET_ITEM,
    dynamodb.Operation.PUT_ITEM,
    dynamodb.Operation.UPDATE_ITEM,
    dynamodb.Operation.DELETE_ITEM,
    dynamodb.Operation.QUERY,
    dynamodb.Operation.SCAN,
    dynamodb.Operation.BATCH_GET_ITEM,
    dynamodb.Operation.BATCH_WRITE_ITEM,
    dynamodb.Operation.TRANSACT_WRITE_ITEMS,
)
"""The operations the adapters call: a table's SystemErrors are counted per operation (at most 10 in an alarm)."""


def custom_metric(name: str, statistic: str, period: Duration = MINUTE) -> cw.Metric:
    """A metric emitted by the functions through Powertools Metrics."""
    return cw.Metric(
        namespace=wiring.METRICS_NAMESPACE,
        metric_name=name,
        dimensions_map={"service": wiring.COMMON_ENVIRONMENT["POWERTOOLS_SERVICE_NAME"]},
        statistic=statistic,
        period=period,
    )


def total(label: str, **metrics: cw.IMetric) -> cw.MathExpression:
    """The sum of ``metrics`` over five minutes, one alarm's metric."""
    return cw.MathExpression(expression=" + ".join(metrics), using_metrics=metrics, label=label, period=FIVE_MINUTES)


def _queue_graph(title: str, queues: Mapping[str, sqs.Queue], metric: str) -> cw.GraphWidget:
    """A line for each queue: its ``metric`` (a ``metric_...`` method of ``sqs.Queue``), the largest in each minute."""
    return cw.GraphWidget(
        title=title,
        left=[getattr(queues[s.name], metric)(period=MINUTE, statistic="Maximum", label=s.name) for s in wiring.QUEUES],
        width=12,
    )


def _workflow_graph(title: str, workflows: Mapping[str, sfn.StateMachine], *events: str) -> cw.GraphWidget:
    """A line for each of ``events`` (``"timed out"``: ``metric_timed_out``) of each workflow's executions a minute."""
    return cw.GraphWidget(
        title=title,
        left=[
            getattr(workflows[s.name], "metric_" + event.replace(" ", "_"))(period=MINUTE, label=f"{s.name} {event}")
            for event in events
            for s in wiring.WORKFLOWS
        ],
        width=12,
    )


WATCHDOG_COUNTS = (
    (
        "TournamentsTerminated",
        "watchdog: a tournament stalled and was terminated; the recovery workflow runs",
        "tournaments-terminated",
    ),
    (
        "WatchFailures",
        "watchdog: checking a tournament raised; that tournament is not watched until it is mended",
        "watch-failures",
    ),
)
"""The watchdog's counts that alarm at one in five minutes: metric (and alarm) name, description, runbook."""


FUNCTION_COUNTS = (
    ("Errors", "invocations failed (exception or timeout)", "function-errors"),
    ("Throttles", "invocations throttled (its reserved concurrency was full)", "throttles"),
)
"""Each function's counts that alarm at one in five minutes: Lambda's metric (the alarm's suffix), what it
means, runbook."""


def _activity_graphs() -> list[cw.IWidget]:
    """The dashboard's first row: tournaments and tables running, hands, actions and registrations a minute."""
    width = 8
    return [
        cw.GraphWidget(title="Active tournaments", left=[custom_metric("ActiveTournaments", "Maximum")], width=width),
        cw.GraphWidget(title="Active tables", left=[custom_metric("ActiveTables", "Maximum")], width=width),
        cw.GraphWidget(
            title="Hands per minute",
            left=[custom_metric("HandsPlayed", "Sum")],
            right=[custom_metric("Actions", "Sum"), custom_metric("Registrations", "Sum")],
            width=width,
        ),
    ]


def _error_graphs(functions: Mapping[str, lambda_.Function], http_api: apigw.HttpApi) -> list[cw.IWidget]:
    """The dashboard's second row: each function's errors, and the HTTP API's errors and p99 latency."""
    return [
        cw.GraphWidget(
            title="Function errors",
            left=[functions[s.name].metric_errors(period=MINUTE, label=s.name) for s in wiring.FUNCTIONS],
            width=12,
        ),
        cw.GraphWidget(
            title="HTTP API",
            left=[
                http_api.metric_client_error(period=MINUTE, label="4xx"),
                http_api.metric_server_error(period=MINUTE, label="5xx"),
            ],
            right=[http_api.metric_latency(period=MINUTE, statistic="p99", label="p99 latency")],
            width=12,
        ),
    ]


class Monitoring(Construct):
    """``topic``, ``alarms[name]``, ``dashboard``."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        functions: Mapping[str, lambda_.Function],
        queues: Mapping[str, sqs.Queue],
        dead_letters: Mapping[str, sqs.Queue],
        workflows: Mapping[str, sfn.StateMachine],
        http_api: apigw.HttpApi,
        tables: Mapping[str, dynamodb.Table],
        websocket_api: apigw.WebSocketApi,
    ) -> None:
        super().__init__(scope, construct_id)
        self.topic = sns.Topic(self, "Topic", display_name="tourney alarms", enforce_ssl=True)
        self.topic.node.default_child.override_logical_id("AlarmTopic")  # type: ignore[union-attr]
        self.alarms: dict[str, cw.Alarm] = {}

        for spec in wiring.QUEUES:
            self._queue_alarms(spec, queues[spec.name], dead_letters[spec.name])
        for function in wiring.FUNCTIONS:
            for metric, says, runbook in FUNCTION_COUNTS:
                count = functions[function.name].metric(metric, period=FIVE_MINUTES, statistic="Sum")
                name, description = f"{logical_id(function.name)}{metric}", f"{function.name}: {says}"
                self._alarm(name, count, threshold=1, description=description, runbook=runbook)
        self._table_alarms(tables)
        for workflow in wiring.WORKFLOWS:
            self._workflow_alarm(workflow.name, workflows[workflow.name])
        self._api_alarms(http_api, websocket_api)
        self._watchdog_alarms()
        self.dashboard = self._dashboard(functions, queues, dead_letters, workflows, http_api)

    def _queue_alarms(self, spec: wiring.QueueSpec, queue: sqs.Queue, dead_letters: sqs.Queue) -> None:
        name = logical_id(spec.name)
        self._alarm(
            f"{name}DeadLetters",
            dead_letters.metric_approximate_number_of_messages_visible(period=MINUTE, statistic="Maximum"),
            threshold=1,
            description=f"{spec.name}: messages in the dead-letter queue (failed {spec.max_receive_count} times)",
            runbook="dead-letters",
        )
        self._alarm(
            f"{name}OldestMessage",
            queue.metric_approximate_age_of_oldest_message(period=MINUTE, statistic="Maximum"),
            threshold=spec.oldest_message_alarm_seconds,
            periods=3,
            description=f"{spec.name}: oldest message older than {spec.oldest_message_alarm_seconds} s, 3 minutes",
            runbook="oldest-message",
        )

    def _workflow_alarm(self, name: str, machine: sfn.StateMachine) -> None:
        failures = total(
            f"{name} failures",
            failed=machine.metric_failed(period=FIVE_MINUTES),
            timedOut=machine.metric_timed_out(period=FIVE_MINUTES),
            aborted=machine.metric_aborted(period=FIVE_MINUTES),
        )
        self._alarm(
            f"{logical_id(name)}WorkflowFailures",
            failures,
            threshold=1,
            description=f"{name} workflow: executions failed, timed out or aborted",
            runbook="workflow-failures",
        )

    def _api_alarms(self, http_api: apigw.HttpApi, websocket_api: apigw.WebSocketApi) -> None:
        self._alarm(
            "HttpApi5xx",
            http_api.metric_server_error(period=FIVE_MINUTES, statistic="Sum"),
            threshold=5,
            description="HTTP API: 5 or more 5xx answers in 5 minutes",
            runbook="http-api-5xx",
        )
        self._alarm(
            "HttpApiLatencyP99",
            http_api.metric_latency(period=FIVE_MINUTES, statistic="p99"),
            threshold=HTTP_P99_MILLISECONDS,
            periods=3,
            description=f"HTTP API: p99 latency at or over {HTTP_P99_MILLISECONDS} ms for 15 minutes",
            runbook="http-api-latency",
        )
        self._alarm(
            "WebSocketErrors",
            total(
                "WebSocket errors",
                integration=self._websocket_metric(websocket_api, "IntegrationError"),
                execution=self._websocket_metric(websocket_api, "ExecutionError"),
            ),
            threshold=5,
            description="WebSocket API: 5 or more messages whose function failed or could not run, in 5 minutes",
            runbook="websocket-errors",
        )

    def _watchdog_alarms(self) -> None:
        for name, description, runbook in WATCHDOG_COUNTS:
            count = custom_metric(name, "Sum", FIVE_MINUTES)
            self._alarm(name, count, threshold=1, description=description, runbook=runbook)
        self._alarm(
            "WatchdogHeartbeat",
            custom_metric("WatchdogHeartbeat", "Sum", FIVE_MINUTES),
            threshold=1,
            comparison=cw.ComparisonOperator.LESS_THAN_THRESHOLD,
            missing=cw.TreatMissingData.BREACHING,
            description="watchdog: no run finished in 5 minutes (it runs every minute); stalls go unseen",
            runbook="watchdog-heartbeat",
        )

    def _table_alarms(self, tables: Mapping[str, dynamodb.Table]) -> None:
        for table_name, table in tables.items():
            name = f"Table{logical_id(table_name)}"
            self._alarm(
                f"{name}Throttles",
                total(
                    f"{table_name} throttled requests",
                    reads=table.metric("ReadThrottleEvents", period=FIVE_MINUTES, statistic="Sum"),
                    writes=table.metric("WriteThrottleEvents", period=FIVE_MINUTES, statistic="Sum"),
                ),
                threshold=1,
                description=f"DynamoDB table {table_name}: reads or writes throttled",
                runbook="dynamodb-throttles",
            )
            self._alarm(
                f"{name}SystemErrors",
                table.metric_system_errors_for_operations(
                    operations=list(DYNAMODB_OPERATIONS), period=FIVE_MINUTES, statistic="Sum"
                ),
                threshold=1,
                description=f"DynamoDB table {table_name}: requests failed on DynamoDB's side (HTTP 500)",
                runbook="dynamodb-system-errors",
            )

    @staticmethod
    def _websocket_metric(websocket_api: apigw.WebSocketApi, name: str) -> cw.Metric:
        return cw.Metric(
            namespace="AWS/ApiGateway",
            metric_name=name,
            dimensions_map={"ApiId": websocket_api.api_id, "Stage": wiring.WEBSOCKET_STAGE},
            statistic="Sum",
            period=FIVE_MINUTES,
        )

    def _alarm(
        self,
        name: str,
        metric: cw.IMetric,
        *,
        threshold: float,
        description: str,
        runbook: str,
        periods: int = 1,
        comparison: cw.ComparisonOperator = cw.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        missing: cw.TreatMissingData = cw.TreatMissingData.NOT_BREACHING,
    ) -> None:
        alarm = cw.Alarm(
            self,
            name,
            metric=metric,
            threshold=threshold,
            evaluation_periods=periods,
            comparison_operator=comparison,
            treat_missing_data=missing,
            alarm_description=f"{description}. What to do: {RUNBOOK_URL}#{runbook}",
        )
        alarm.node.default_child.override_logical_id(f"Alarm{name}")  # type: ignore[union-attr]
        alarm.add_alarm_action(actions.SnsAction(self.topic))
        alarm.add_ok_action(actions.SnsAction(self.topic))
        self.alarms[name] = alarm

    def _dashboard(
        self,
        functions: Mapping[str, lambda_.Function],
        queues: Mapping[str, sqs.Queue],
        dead_letters: Mapping[str, sqs.Queue],
        workflows: Mapping[str, sfn.StateMachine],
        http_api: apigw.HttpApi,
    ) -> cw.Dashboard:
        dashboard = cw.Dashboard(
            self,
            "Dashboard",
            dashboard_name=f"{Stack.of(self).stack_name}-Operators",
            default_interval=Duration.hours(3),
        )
        dashboard.node.default_child.override_logical_id("Dashboard")  # type: ignore[union-attr]
        dashboard.add_widgets(*_activity_graphs())
        dashboard.add_widgets(*_error_graphs(functions, http_api))
        dashboard.add_widgets(
            _queue_graph("Queue age of oldest message (s)", queues, "metric_approximate_age_of_oldest_message"),
            _queue_graph("Dead-letter queue depth", dead_letters, "metric_approximate_number_of_messages_visible"),
        )
        dashboard.add_widgets(
            _workflow_graph("Workflow failures", workflows, "failed", "timed out"),
            _workflow_graph("Workflow executions", workflows, "started", "succeeded"),
        )
        dashboard.add_widgets(
            cw.GraphWidget(
                title="Terminations, refunds, ignored messages",
                left=[
                    custom_metric("TournamentsTerminated", "Sum"),
                    custom_metric("TournamentsRefunded", "Sum"),
                    custom_metric("MessagesIgnored", "Sum"),
                ],
                width=12,
            ),
            cw.AlarmStatusWidget(title="Alarms", alarms=list(self.alarms.values()), width=12, height=8),
        )
        return dashboard
