"""The services a function runs over: built once per process from the settings, or given (tests, local runtime).

Every function calls :func:`services`; HTTP routes receive it through
``Depends`` (``entrypoints/dependencies.py``), the other handlers call it
directly. Tests give the in-memory services with :func:`use_services` (and
``app.dependency_overrides`` for the HTTP resolvers): no module global is
patched. Building the AWS services imports the services, the domain and the
adapters (botocore, PynamoDB), so it happens on the first call, never when a
handler module is imported; this module imports nothing heavy.
"""

from __future__ import annotations

import functools
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

from tourney.entrypoints.given import Given
from tourney.entrypoints.settings import Settings, settings

if TYPE_CHECKING:
    from tourney.bootstrap import Services

__all__ = ["services", "use_services"]

_given: Given[Services] = Given()


@functools.lru_cache(maxsize=16)
def _aws_services(config: Settings) -> Services:
    """The services over the AWS adapters for these settings (built once per process on Lambda; once per
    function in the local runtime, where each function's environment differs)."""
    from tourney.bootstrap import bootstrap_aws

    return bootstrap_aws(config)


def services() -> Services:
    """The process's services: the ones given to :func:`use_services`, else the AWS ones (built once)."""
    given = _given.latest()
    if given is not None:
        return given
    return _aws_services(settings())


def use_services(given: Services) -> AbstractContextManager[Services]:
    """Run the handlers over ``given`` (tests: the in-memory services) until the block ends."""
    return _given.during(given)
