"""The functions' edge: settings, observability, request models, the composition of the services.

Imported before any pydantic model is built (every handler's first import of ours is one of these modules), the
package spares each cold start pydantic's plugin discovery (``pydantic_plugins``).
"""

from tourney.entrypoints import pydantic_plugins

pydantic_plugins.install()
