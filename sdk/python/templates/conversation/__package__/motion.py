"""Movement fusion: several motion layers summed into one target per tick."""

import math
from typing import Any, List, Tuple

from reachy_mini.utils import create_head_pose


def breathing(t: float) -> Tuple[float, float]:
    """Idle layer: a slow rise and fall (z in mm) and a little pitch (deg)."""
    return 3.0 * math.sin(2 * math.pi * 0.25 * t), 2.0 * math.sin(2 * math.pi * 0.25 * t + 1.0)


def speech_wobble(t: float, level: float) -> Tuple[float, float]:
    """Talking layer: quick small roll and pitch while the robot speaks (deg)."""
    return level * 4.0 * math.sin(2 * math.pi * 3.0 * t), level * 3.0 * math.sin(2 * math.pi * 2.3 * t)


def fuse(t: float, level: float, look_yaw_deg: float) -> Tuple[Any, List[float]]:
    z_mm, pitch = breathing(t)
    roll, wobble_pitch = speech_wobble(t, level)
    head = create_head_pose(z=z_mm, roll=roll, pitch=pitch + wobble_pitch, yaw=look_yaw_deg, mm=True)
    spread = math.radians(10 + 20 * level)
    antennas = [-spread, spread]
    return head, antennas
