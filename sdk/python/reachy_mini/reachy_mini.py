"""ReachyMini: the robot, seen through its daemon's ``/ws/sdk`` WebSocket.

The stand-in keeps the real SDK's names, arguments, errors and handshake
(connect, wait for joint_positions + head_pose, set_automatic_body_yaw, wait
for daemon_status); what needs the real robot's hardware or kinematics
(WebRTC media, look_at_*, IK) is not here.
"""

from __future__ import annotations

import logging
import os
from typing import Any, List, Optional, Tuple
from urllib.parse import urlsplit

from .io.ws_client import WSClient
from .media import NoMedia
from .utils.pose import REST_HEAD_POSE, as_matrix, flatten_pose, shape_of, to_plain

logger = logging.getLogger("reachy_mini")

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
# robotctl's daemon tells the apps it starts where it listens, so that several
# simulated robots on one machine each drive their own; the real daemon sets
# nothing and the default above is its address.
DAEMON_URL_ENV = "ROBOT_DAEMON_URL"
INTERPOLATIONS = ("linear", "minjerk", "ease_in_out", "cartoon")
SLEEP_HEAD_POSE = [[0.911, 0.004, 0.413, -0.021], [-0.004, 1.0, -0.001, 0.001], [-0.413, -0.001, 0.911, -0.044], [0.0, 0.0, 0.0, 1.0]]
SLEEP_ANTENNAS = [-3.05, 3.05]


def daemon_address(host: Optional[str] = None, port: Optional[int] = None) -> Tuple[str, int]:
    """Explicit host/port, else ROBOT_DAEMON_URL, else 127.0.0.1:8000."""
    env = urlsplit(os.environ.get(DAEMON_URL_ENV, ""))
    env_host = env.hostname if env.hostname else None
    h = host or env_host or DEFAULT_HOST
    h = DEFAULT_HOST if h in ("localhost", "0.0.0.0") else h
    p = port or (env.port if env_host else None) or DEFAULT_PORT
    return h, int(p)


def _head(head: Any) -> List[float]:
    shape = shape_of(head)
    if shape != (4, 4):
        raise ValueError(f"Head pose must be a 4x4 matrix, got shape {shape}.")
    return flatten_pose(head)


def _antennas(antennas: Any) -> List[float]:
    values = to_plain(antennas)
    if not isinstance(values, (list, tuple)) or len(values) != 2:
        raise ValueError("Antennas must be a list or 1D np array with two elements.")
    return [float(v) for v in values]


def _yaw(body_yaw: Any) -> float:
    body_yaw = to_plain(body_yaw)
    if isinstance(body_yaw, bool) or not isinstance(body_yaw, (int, float)):
        raise ValueError("body_yaw must be a float.")
    return float(body_yaw)


class ReachyMini:
    """A Reachy Mini (real or simulated). Extra arguments of the real
    constructor (``spawn_daemon``, ``use_sim``, ``localhost_only``…) are
    accepted and have no effect here."""

    def __init__(self, robot_name: str = "reachy_mini", connection_mode: str = "auto", spawn_daemon: bool = False,
                 use_sim: bool = False, timeout: float = 5.0, automatic_body_yaw: bool = True, log_level: str = "INFO",
                 media_backend: str = "default", host: Optional[str] = None, port: Optional[int] = None, **_ignored: Any) -> None:
        self.robot_name = robot_name
        self.host, self.port = daemon_address(host, port)
        self.client = WSClient(self.host, self.port, timeout=timeout)
        self.client.wait_for_connection(timeout=timeout)
        self.set_automatic_body_yaw(automatic_body_yaw)
        status = self.client.get_status(timeout=timeout)
        if robot_name != "reachy_mini" and status.get("robot_name") != robot_name:
            self.client.disconnect()
            raise ConnectionError(f"Connected to robot '{status.get('robot_name')}', not '{robot_name}'.")
        self._released_media = False
        if not status.get("no_media") and media_backend == "no_media":
            self.client.release_media()
            self._released_media = True
        elif not status.get("no_media"):
            logger.warning("This reachy_mini stand-in has no media stack: camera and audio are not available.")
        self.media = NoMedia()
        self._recording = False

    # -- context -------------------------------------------------------------
    def __enter__(self) -> "ReachyMini":
        return self

    def __exit__(self, *_exc: Any) -> None:
        self.close()

    def close(self) -> None:
        if self._released_media:
            self.client.acquire_media()
            self._released_media = False
        self.client.disconnect()

    # -- targets -------------------------------------------------------------
    def set_target(self, head: Any = None, antennas: Any = None, body_yaw: Any = None) -> None:
        if head is None and antennas is None and body_yaw is None:
            raise ValueError("At least one of head, antennas or body_yaw must be provided.")
        msg = {
            "type": "set_full_target",
            "head": None if head is None else _head(head),
            "antennas": None if antennas is None else _antennas(antennas),
            "body_yaw": None if body_yaw is None else _yaw(body_yaw),
        }
        self.client.send_command(msg)
        if self._recording:
            self.client.send_command({"type": "append_record", "record": {k: v for k, v in msg.items() if k != "type"}})

    def set_target_head_pose(self, pose: Any) -> None:
        self.client.send_command({"type": "set_target", "head": _head(pose)})

    def set_target_antenna_joint_positions(self, antennas: Any) -> None:
        self.client.send_command({"type": "set_antennas", "antennas": _antennas(antennas)})

    def set_target_body_yaw(self, body_yaw: Any) -> None:
        self.client.send_command({"type": "set_body_yaw", "body_yaw": _yaw(body_yaw)})

    def set_automatic_body_yaw(self, body_yaw: bool) -> None:
        self.client.send_command({"type": "set_automatic_body_yaw", "enabled": bool(body_yaw)})

    def goto_target(self, head: Any = None, antennas: Any = None, duration: float = 0.5,
                    method: Any = "minjerk", body_yaw: Any = 0.0) -> None:
        """An interpolated move run by the daemon; returns when it ended."""
        if head is None and antennas is None and body_yaw is None:
            raise ValueError("At least one of head, antennas or body_yaw must be provided.")
        if duration <= 0.0:
            raise ValueError("Duration must be positive and non-zero. Use set_target() for immediate position setting.")
        method = str(getattr(method, "value", method))
        if method not in INTERPOLATIONS:
            raise ValueError(f"Unknown interpolation method {method!r}: use one of {', '.join(INTERPOLATIONS)}.")
        req = {
            "head": None if head is None else _head(head),
            "antennas": None if antennas is None else _antennas(antennas),
            "duration": float(duration),
            "method": method,
            "body_yaw": None if body_yaw is None else _yaw(body_yaw),
        }
        task = self.client.send_task(req)
        self.client.wait_for_task_completion(task, timeout=duration + 1.0)

    def wake_up(self) -> None:
        self.goto_target(REST_HEAD_POSE, antennas=[0.0, 0.0], duration=2.0)

    def goto_sleep(self) -> None:
        self.goto_target(SLEEP_HEAD_POSE, antennas=SLEEP_ANTENNAS, duration=2.0)

    # -- state ---------------------------------------------------------------
    def get_current_head_pose(self) -> Any:
        return as_matrix([list(r) for r in (self.client.head_pose or REST_HEAD_POSE)])

    def get_current_joint_positions(self) -> Tuple[List[float], List[float]]:
        jp = self.client.joint_positions or {}
        return list(jp.get("head") or []), list(jp.get("antennas") or [])

    def get_present_antenna_joint_positions(self) -> List[float]:
        return self.get_current_joint_positions()[1]

    # -- motors --------------------------------------------------------------
    def enable_motors(self, ids: Optional[List[str]] = None) -> None:
        self.client.send_command({"type": "set_torque", "on": True, "ids": ids})

    def disable_motors(self, ids: Optional[List[str]] = None) -> None:
        self.client.send_command({"type": "set_torque", "on": False, "ids": ids})

    def enable_gravity_compensation(self) -> None:
        self.client.send_command({"type": "set_gravity_compensation", "enabled": True})

    def disable_gravity_compensation(self) -> None:
        self.client.send_command({"type": "set_gravity_compensation", "enabled": False})

    # -- recording -----------------------------------------------------------
    def start_recording(self) -> None:
        self._recording = True
        self.client.send_command({"type": "start_recording"})

    def stop_recording(self, timeout: float = 5.0) -> List[Any]:
        self._recording = False
        self.client.send_command({"type": "stop_recording"})
        return self.client.wait_for_recording(timeout)
