"""The local stack, composed: one template in, everything of it running on 127.0.0.1.

>>> # with LocalRuntime(load_stack(Path("cdk.out")), repo_root=Path(".")) as stack:
>>> #     stack.urls  -> {"http": ..., "ws": ..., "swagger": ...}

Start order: the gateway's socket (its port goes into the resolved
environment), the moto server, the process environment for in-process
handlers (endpoints, dummy credentials), the functions, the patches of moto,
the resources (tables, queues, schedule groups and schedules, state machines),
then the gateway, the queue pollers and the scheduler. ``stop`` undoes all of
it in reverse, the process environment included.
"""

from __future__ import annotations

import logging
import os
import secrets
import sys
import threading
from pathlib import Path
from typing import Any

from infra.local.clock import VirtualClock
from infra.local.gateway import Gateway, bind_socket
from infra.local.http_api import read_http_apis
from infra.local.inprocess import InProcessTransport
from infra.local.jwt_keys import AuthConfig, SigningKeys, auth_config
from infra.local.lambdas import FunctionRegistry, base_environment, install_layered_environ, read_functions
from infra.local.moto_server import MotoPatches, MotoServer, create_queues, create_tables
from infra.local.pollers import QueuePoller, read_queue_mappings
from infra.local.schedules import Scheduler, Targets, create_template_schedules, read_rules
from infra.local.template import LocalEndpoints, Resolver, Template, load_stack
from infra.local.websocket_api import read_websocket_apis
from infra.local.workflows import WaitCompression, create_state_machines

log = logging.getLogger("infra.local")


def default_keys_dir(repo_root: Path) -> Path:
    """Where ``up`` and ``token`` keep the signing key: ``cdk.out/local/`` (ignored by git)."""
    return repo_root / "cdk.out" / "local"


class LocalRuntime:
    """Everything a template declares, running locally. A context manager; or ``start()`` / ``stop()``."""

    def __init__(
        self,
        template: Template,
        repo_root: Path,
        port: int = 0,
        time_factor: float = 1.0,
        keys_dir: Path | None = None,
    ) -> None:
        if time_factor <= 0:
            raise ValueError("the time factor must be positive")
        self.template = template
        self.repo_root = Path(repo_root).resolve()
        self.port = port
        self.time_factor = float(time_factor)
        self.clock = VirtualClock(self.time_factor)
        self.keys = SigningKeys(keys_dir or default_keys_dir(self.repo_root))
        self.moto = MotoServer()
        self.aws_secret = secrets.token_urlsafe(24)
        """This run's secret access key: its handlers sign with it, and ``@connections`` over HTTP must be signed
        with it (another process of the machine cannot push to or close a connection)."""
        self.functions = FunctionRegistry([])
        self.auth = AuthConfig()
        self.gateway: Gateway | None = None
        self.resolver: Resolver | None = None
        self.queue_urls: dict[str, str] = {}
        self.table_names: dict[str, str] = {}
        self.state_machines: dict[str, str] = {}
        self._stopping = threading.Event()
        self._pollers: list[QueuePoller] = []
        self._scheduler: Scheduler | None = None
        self._targets: Targets | None = None
        self._patches: MotoPatches | None = None
        self._waits: WaitCompression | None = None
        self._transport: InProcessTransport | None = None
        self._saved_models: list[tuple[Any, dict[str, Any]]] = []
        self._saved_environ: dict[str, str | None] = {}
        self._started = False

    # ------------------------------------------------------------------ lifecycle

    def __enter__(self) -> LocalRuntime:
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def start(self) -> None:
        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # moto's server logs every call
        self._started = True
        try:
            self._start()
        except BaseException:
            self.stop()
            raise

    def _start(self) -> None:
        self._save_models()
        sock = bind_socket(self.port)
        http_url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        moto_url = self.moto.start()
        self._set_environ(
            {
                **base_environment(moto_url, self.aws_secret),
                "MOTO_PORT": moto_url.rsplit(":", 1)[1],
                "AWS_ENDPOINT_URL_APIGATEWAYMANAGEMENTAPI": http_url,
            }
        )
        install_layered_environ()
        template = self.template
        resolver = Resolver(template, LocalEndpoints(moto_url=moto_url, http_url=http_url))
        self.resolver = resolver
        self.auth = auth_config(template, resolver)
        self.functions = read_functions(
            template,
            resolver,
            self.repo_root,
            extra_env={
                **base_environment(moto_url, self.aws_secret),
                "JWT_JWKS_URL": self.keys.jwks_url,
                **self.clock.environment(),
            },
        )
        for function in self.functions:
            if function.unavailable:
                log.warning("function %s is not run locally: %s", function.name, function.unavailable)
        layers = str(self.repo_root / "layers")
        if layers not in sys.path:
            sys.path.append(layers)

        self._patches = MotoPatches(self.functions, self.time_factor)
        self._patches.install()
        self._waits = WaitCompression(self.clock)
        self._waits.install()

        self.table_names = create_tables(self.moto.client("dynamodb"), template, resolver)
        self.queue_urls = create_queues(self.moto.client("sqs"), template, resolver)
        create_template_schedules(self.moto.client("scheduler"), template, resolver)
        self.state_machines = create_state_machines(self.moto.client("stepfunctions"), template, resolver)

        self.gateway = Gateway(
            sock,
            read_http_apis(template, resolver, self.functions),
            read_websocket_apis(template, resolver, self.functions),
            self.keys,
            connections_secret=self.aws_secret,
            web_root=self.repo_root / "web",
            mint=self.token,
        )
        self.gateway.start()
        self._transport = InProcessTransport(moto_url, self.moto.app, http_url, self.gateway.deliver)
        self._transport.install()

        for mapping in read_queue_mappings(template, resolver, self.functions):
            poller = QueuePoller(mapping, lambda: self.moto.client("sqs"), self.time_factor, self._stopping)
            poller.start()
            self._pollers.append(poller)

        queue_by_arn = {resolver.get_att(logical_id, "Arn"): url for logical_id, url in self.queue_urls.items()}
        self._targets = Targets(self.functions, self.moto.client, lambda arn: queue_by_arn[arn])
        self._scheduler = Scheduler(
            self.moto.client,
            self._targets,
            read_rules(template, resolver),
            self.clock,
            self._stopping,
        )
        self._scheduler.start()
        log.info(
            "local stack %s: %d functions, %d tables, %d queues, %d state machines; %s",
            template.stack_name,
            len(self.functions.functions),
            len(self.table_names),
            len(self.queue_urls),
            len(self.state_machines),
            self.urls,
        )

    def stop(self) -> None:
        if not self._started:
            return
        self._started = False
        self._stopping.set()
        try:
            if self._scheduler is not None:
                self._scheduler.join(timeout=10)
            for poller in self._pollers:
                poller.join(timeout=10)
            if self.gateway is not None:
                self.gateway.stop()
            if self._targets is not None:
                self._targets.shutdown()
        finally:
            if self._transport is not None:
                self._transport.remove()
                self._transport = None
            if self._waits is not None:
                self._waits.remove()
            if self._patches is not None:
                self._patches.remove()
            try:
                self.moto.stop()
            finally:
                self._restore_environ()
                self._restore_models()

    def _save_models(self) -> None:
        """Remember the PynamoDB models' tables and endpoint: the handlers point them at this stack's moto."""
        try:
            from tourney.adapters.dynamo.models.base import registered_models
        except ImportError:
            return
        self._saved_models = [
            (model.Meta, {k: getattr(model.Meta, k, None) for k in ("table_name", "host", "region")})
            for model, _ in registered_models()
        ]

    def _restore_models(self) -> None:
        """Point the models back where they were (a stopped stack's moto is gone), connections forgotten."""
        if not self._saved_models:
            return
        from tourney.adapters.dynamo.models.base import reset_connections

        for meta, values in self._saved_models:
            for key, value in values.items():
                setattr(meta, key, value)
        self._saved_models = []
        reset_connections()

    def _set_environ(self, values: dict[str, str]) -> None:
        for key, value in values.items():
            self._saved_environ.setdefault(key, os.environ.get(key))
            os.environ[key] = value

    def _restore_environ(self) -> None:
        for key, value in self._saved_environ.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        self._saved_environ.clear()

    @classmethod
    def from_cdk_out(
        cls, cdk_out: Path | None = None, repo_root: Path | None = None, stack: str | None = None, **options: Any
    ) -> LocalRuntime:
        """The runtime of the repository's ``cdk.out`` (synthesized first when missing or stale); not started.

        ``options``: ``port``, ``time_factor``, ``keys_dir``. For the demo, the simulator and tests::

            with LocalRuntime.from_cdk_out(time_factor=60) as stack:
                stack.urls["http"], stack.token("ann")
        """
        from infra.local.synth import ensure_synthesized

        root = Path(repo_root or Path(__file__).resolve().parents[2])
        out = Path(cdk_out or root / "cdk.out")
        ensure_synthesized(out, root)
        return cls(load_stack(out, stack), root, **options)

    # ------------------------------------------------------------------ what it serves

    @property
    def urls(self) -> dict[str, str]:
        assert self.gateway is not None, "start the runtime first"
        return {
            "http": self.gateway.url,
            "ws": self.gateway.ws_url,
            "swagger": f"{self.gateway.url}/swagger",
            "app": f"{self.gateway.url}/app/",
        }

    @property
    def moto_url(self) -> str:
        return self.moto.url

    def token(self, player: str, operator: bool = False) -> str:
        """A token this stack accepts for ``player``."""
        return self.keys.mint(player, self.auth, operator=operator)

    def client(self, service: str) -> Any:
        """A boto3 client of the local AWS (the moto server)."""
        return self.moto.client(service)
