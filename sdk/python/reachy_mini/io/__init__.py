"""The daemon connection: ``/ws/sdk`` over a standard-library WebSocket."""

from .ws_client import WSClient

__all__ = ["WSClient"]
