"""What the functions are given: the services (built once per process) and the caller.

HTTP routes receive them through ``Depends`` (docs/architecture.md, 'Configuration and
dependencies'); tests swap them with ``app.dependency_overrides[services]``.
The other handlers (SQS, schedules, workflows, WebSocket) call
:func:`services` directly; tests give them the in-memory services with
:func:`use_services`, the one sanctioned way in (no module global is patched).

Building the services imports the services, the domain and the AWS adapters
(botocore, PynamoDB: several hundred milliseconds on a small machine), so it
happens on the first call, never when a handler module is imported. For the
same reason the ``Depends`` aliases below name the service types only for the
type checker: Powertools resolves route annotations when the route is
declared, and at run time the service classes are ``Any``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from aws_lambda_powertools.event_handler import Depends
from aws_lambda_powertools.event_handler.request import Request

from tourney.entrypoints.auth import Caller, http_caller
from tourney.entrypoints.settings import Settings, settings
from tourney.entrypoints.wiring import services, use_services

if TYPE_CHECKING:
    from tourney.bootstrap import Services
    from tourney.services.accounts import AccountsService
    from tourney.services.admin import AdminService
    from tourney.services.lobby import LobbyService
    from tourney.services.play import PlayService
    from tourney.services.register import RegistrationService
else:  # what Powertools resolves when a route is declared; the real classes load with the services, on first use
    AccountsService = AdminService = LobbyService = PlayService = RegistrationService = Services = Any

__all__ = [
    "Accounts",
    "Admin",
    "CurrentCaller",
    "Lobby",
    "Play",
    "Registration",
    "current_caller",
    "services",
    "use_services",
]


def current_caller(request: Request) -> Caller:
    """The caller named by the JWT authorizer's claims (``Unauthorized`` without them)."""
    return http_caller(request.resolved_event.raw_event)


def current_settings() -> Settings:
    return settings()


ServicesDep = Annotated[Services, Depends(services)]


def lobby_service(svc: ServicesDep) -> LobbyService:
    return svc.lobby


def accounts_service(svc: ServicesDep) -> AccountsService:
    return svc.accounts


def registration_service(svc: ServicesDep) -> RegistrationService:
    return svc.registration


def play_service(svc: ServicesDep) -> PlayService:
    return svc.play


def admin_service(svc: ServicesDep) -> AdminService:
    return svc.admin


CurrentCaller = Annotated[Caller, Depends(current_caller)]

Lobby = Annotated[LobbyService, Depends(lobby_service)]
Accounts = Annotated[AccountsService, Depends(accounts_service)]
Registration = Annotated[RegistrationService, Depends(registration_service)]
Play = Annotated[PlayService, Depends(play_service)]
Admin = Annotated[AdminService, Depends(admin_service)]
