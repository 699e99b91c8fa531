"""The stored shapes (PynamoDB models), one module per table; ``base`` holds what they share."""

from tourney.adapters.dynamo.models.base import configure, registered_models, reset_connections

__all__ = ["configure", "registered_models", "reset_connections"]
