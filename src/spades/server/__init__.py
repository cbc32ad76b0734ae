"""The web table's server: ``create_app(settings)`` (docs/protocol.md)."""

from .app import create_app
from .common import Settings

__all__ = ["Settings", "create_app"]
