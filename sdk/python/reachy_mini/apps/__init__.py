"""Reachy Mini apps: the ``ReachyMiniApp`` base class."""

from .app import ReachyMiniApp

__all__ = ["ReachyMiniApp"]
