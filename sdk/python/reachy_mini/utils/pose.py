"""Head poses as 4x4 matrices: numpy arrays when numpy is installed, else nested lists."""

from __future__ import annotations

import math
from typing import Any, List, Sequence

Matrix = List[List[float]]

# Rest pose of the real daemon: identity head, antennas slightly apart (rad).
REST_HEAD_POSE: Matrix = [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]]
REST_ANTENNAS: List[float] = [-0.1745, 0.1745]


def _rot_x(a: float) -> Matrix:
    c, s = math.cos(a), math.sin(a)
    return [[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]]


def _rot_y(a: float) -> Matrix:
    c, s = math.cos(a), math.sin(a)
    return [[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]]


def _rot_z(a: float) -> Matrix:
    c, s = math.cos(a), math.sin(a)
    return [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]


def _matmul3(a: Matrix, b: Matrix) -> Matrix:
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def euler_xyz_to_matrix(roll: float, pitch: float, yaw: float) -> Matrix:
    """3x3 rotation for extrinsic Euler "xyz" angles in radians.

    This is scipy's ``Rotation.from_euler("xyz", [roll, pitch, yaw])`` (lower
    case = extrinsic, i.e. about the fixed axes): first roll about x, then pitch
    about y, then yaw about z, so R = Rz(yaw) @ Ry(pitch) @ Rx(roll). The real
    SDK's create_head_pose uses exactly that call.
    """
    return _matmul3(_rot_z(yaw), _matmul3(_rot_y(pitch), _rot_x(roll)))


def create_head_pose(
    x: float = 0,
    y: float = 0,
    z: float = 0,
    roll: float = 0,
    pitch: float = 0,
    yaw: float = 0,
    mm: bool = False,
    degrees: bool = True,
) -> Matrix:
    """A 4x4 homogeneous head pose (translation in metres unless ``mm``)."""
    if degrees:
        roll, pitch, yaw = math.radians(roll), math.radians(pitch), math.radians(yaw)
    scale = 0.001 if mm else 1.0
    rot = euler_xyz_to_matrix(float(roll), float(pitch), float(yaw))
    t = [float(x) * scale, float(y) * scale, float(z) * scale]
    return as_matrix([rot[0] + [t[0]], rot[1] + [t[1]], rot[2] + [t[2]], [0.0, 0.0, 0.0, 1.0]])


def as_matrix(rows: Any) -> Any:
    """A numpy array when numpy is installed (what the real SDK returns), else the lists."""
    try:
        import numpy as np  # type: ignore[import-not-found]
    except ImportError:
        return rows
    return np.array(rows, dtype=float)


def to_plain(value: Any) -> Any:
    """numpy arrays (and anything with ``tolist``) become nested lists."""
    tolist = getattr(value, "tolist", None)
    return tolist() if callable(tolist) else value


def shape_of(value: Any) -> tuple:
    """The shape numpy would report for a nested sequence (ragged: outer only)."""
    value = to_plain(value)
    if not isinstance(value, (list, tuple)):
        return ()
    if not value:
        return (0,)
    inner = [shape_of(v) for v in value]
    if all(s == inner[0] for s in inner):
        return (len(value),) + inner[0]
    return (len(value),)


def flatten_pose(head: Any) -> List[float]:
    """16 floats, row-major, as the daemon's ``{"m": [...]}`` expects."""
    rows = to_plain(head)
    return [float(v) for row in rows for v in row]


def unflatten_pose(m: Sequence[float]) -> Matrix:
    values = [float(v) for v in m]
    return [values[i * 4:(i + 1) * 4] for i in range(4)]
