"""Robot client over the daemon's REST API (spec robot-daemon §7)."""

from __future__ import annotations

import os
import time
from typing import Any, List, Optional, Tuple

from ._http import JsonConnection
from .pose import Matrix, flatten_pose, shape_of, to_plain, unflatten_pose

DEFAULT_DAEMON_URL = "http://127.0.0.1:8000"
# Set by the bundled daemon for the apps it starts; a real daemon sets nothing,
# so the default above must be the real daemon's address.
DAEMON_URL_ENV = "ROBOT_DAEMON_URL"
INTERPOLATIONS = ("linear", "minjerk", "ease_in_out", "cartoon")


def daemon_url(url: Optional[str] = None) -> str:
    return url or os.environ.get(DAEMON_URL_ENV) or DEFAULT_DAEMON_URL


def _check_head(head: Any) -> List[float]:
    shape = shape_of(head)
    if shape != (4, 4):
        raise ValueError(f"Head pose must be a 4x4 matrix, got shape {shape}.")
    return flatten_pose(head)


def _check_antennas(antennas: Any) -> List[float]:
    values = to_plain(antennas)
    if not isinstance(values, (list, tuple)) or len(values) != 2:
        raise ValueError("Antennas must be a list or 1D np array with two elements.")
    return [float(v) for v in values]


def _check_body_yaw(body_yaw: Any) -> float:
    body_yaw = to_plain(body_yaw)
    if isinstance(body_yaw, bool) or not isinstance(body_yaw, (int, float)):
        raise ValueError("body_yaw must be a float.")
    return float(body_yaw)


class Robot:
    """A Reachy Mini (real or simulated) seen through its daemon.

    Extra keyword arguments of the reachy_mini SDK's constructor
    (``media_backend``, ``localhost_only``…) are accepted and ignored so apps
    written for it construct this class unchanged.
    """

    def __init__(self, url: Optional[str] = None, timeout: float = 5.0, **_compat: Any) -> None:
        self.url = daemon_url(url)
        self._http = JsonConnection(self.url, timeout=timeout)
        # A daemon that is starting gets a moment; a missing one fails fast.
        self.connect_wait = min(timeout, 1.0)

    # -- connection -------------------------------------------------------
    def connect(self) -> "Robot":
        self._http.connect(wait=self.connect_wait)
        return self

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> "Robot":
        return self.connect()

    def __exit__(self, *_exc: Any) -> None:
        self.close()

    def request(self, method: str, path: str, body: Any = None) -> Any:
        """Raw JSON call to the daemon (for routes this client does not wrap)."""
        return self._http.request(method, path, body)

    # -- motion -----------------------------------------------------------
    def set_target(self, head: Any = None, antennas: Any = None, body_yaw: Any = None) -> Any:
        """Immediate target: ``POST /api/move/set_target``."""
        if head is None and antennas is None and body_yaw is None:
            raise ValueError("At least one of head, antennas or body_yaw must be provided.")
        body: dict = {}
        if head is not None:
            body["target_head_pose"] = {"m": _check_head(head)}
        if antennas is not None:
            body["target_antennas"] = _check_antennas(antennas)
        if body_yaw is not None:
            body["target_body_yaw"] = _check_body_yaw(body_yaw)
        return self._http.request("POST", "/api/move/set_target", body)

    def goto_target(self, head: Any = None, antennas: Any = None, duration: float = 0.5,
                    method: str = "minjerk", body_yaw: Any = 0.0) -> str:
        """Interpolated move (``POST /api/move/goto``); returns once it finished."""
        if head is None and antennas is None and body_yaw is None:
            raise ValueError("At least one of head, antennas or body_yaw must be provided.")
        if duration <= 0.0:
            raise ValueError("Duration must be positive and non-zero. Use set_target() for immediate position setting.")
        method = str(getattr(method, "value", method))
        if method not in INTERPOLATIONS:
            raise ValueError(f"Unknown interpolation method {method!r}: use one of {', '.join(INTERPOLATIONS)}.")
        body = {
            "head_pose": None if head is None else {"m": _check_head(head)},
            "antennas": None if antennas is None else _check_antennas(antennas),
            "body_yaw": None if body_yaw is None else _check_body_yaw(body_yaw),
            "duration": float(duration),
            "interpolation": method,
        }
        uuid = self._http.request("POST", "/api/move/goto", body)["uuid"]
        time.sleep(duration)
        self.wait_move(uuid, timeout=1.0 + duration)
        return uuid

    def wait_move(self, uuid: str, timeout: float = 10.0) -> bool:
        """Poll ``/api/move/running`` until the move is gone; False on timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            running = self._http.request("GET", "/api/move/running") or []
            if all(m.get("uuid") != uuid for m in running):
                return True
            time.sleep(0.02)
        return False

    def wake_up(self) -> str:
        uuid = self._http.request("POST", "/api/move/play/wake_up")["uuid"]
        self.wait_move(uuid)
        return uuid

    def goto_sleep(self) -> str:
        uuid = self._http.request("POST", "/api/move/play/goto_sleep")["uuid"]
        self.wait_move(uuid)
        return uuid

    def stop_move(self, uuid: str) -> Any:
        return self._http.request("POST", "/api/move/stop", {"uuid": uuid})

    # -- state ------------------------------------------------------------
    def get_current_head_pose(self) -> Matrix:
        data = self._http.request("GET", "/api/state/present_head_pose?use_pose_matrix=true")
        return unflatten_pose(data["m"])

    def get_present_antenna_joint_positions(self) -> List[float]:
        return [float(v) for v in self._http.request("GET", "/api/state/present_antenna_joint_positions")]

    def get_present_body_yaw(self) -> float:
        return float(self._http.request("GET", "/api/state/present_body_yaw"))

    def get_current_joint_positions(self) -> Tuple[List[float], List[float]]:
        """(head joints, antenna joints) as the daemon reports them."""
        state = self.get_full_state(with_head_joints="true", with_head_pose="false",
                                    with_body_yaw="false", with_control_mode="false")
        return list(state.get("head_joints") or []), list(state.get("antennas_position") or [])

    def get_full_state(self, **flags: str) -> dict:
        query = "&".join(f"{k}={v}" for k, v in flags.items())
        return self._http.request("GET", "/api/state/full" + (f"?{query}" if query else ""))

    # -- motors -----------------------------------------------------------
    def set_motor_mode(self, mode: str) -> Any:
        return self._http.request("POST", f"/api/motors/set_mode/{mode}")

    def enable_motors(self) -> Any:
        return self.set_motor_mode("enabled")

    def disable_motors(self) -> Any:
        return self.set_motor_mode("disabled")


ReachyMini = Robot
