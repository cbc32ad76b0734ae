"""The web table's server: ``create_app(settings)`` (docs/protocol.md)."""

from .app import Settings, create_app

__all__ = ["Settings", "create_app"]
