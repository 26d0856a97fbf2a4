"""Helpers of the Reachy Mini SDK that apps import: ``create_head_pose``."""

from .pose import create_head_pose

__all__ = ["create_head_pose"]
