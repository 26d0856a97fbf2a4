"""The client side of the daemon's ``/ws/sdk`` (the real SDK's protocol).

One receive thread keeps the latest state frames (``joint_positions``,
``head_pose``, ``daemon_status``) and the goto tasks' ends; commands are
fire-and-forget JSON text frames. A connection that brought no valid state
frame for about two seconds is lost: every later command raises
``ConnectionError("Lost connection with the server.")``, as in the real SDK.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import urllib.request
import uuid as uuidlib
from datetime import datetime
from typing import Any, Dict, List, Optional

from .websocket import WebSocket

logger = logging.getLogger("reachy_mini.io.ws_client")

STATE_TYPES = ("joint_positions", "head_pose", "daemon_status", "task_progress", "imu_data", "recorded_data")
ALIVE_S = 2.0


class WSClient:
    def __init__(self, host: str, port: int, timeout: float = 5.0) -> None:
        self.host, self.port = host, port
        try:
            self._ws = WebSocket.connect(host, port, "/ws/sdk", timeout=timeout)
        except OSError as err:
            raise ConnectionError(f"Could not connect to the Reachy Mini daemon at ws://{host}:{port}/ws/sdk: {err}") from err
        self._cond = threading.Condition()
        self.joint_positions: Optional[Dict[str, List[float]]] = None
        self.head_pose: Optional[List[List[float]]] = None
        self.status: Optional[Dict[str, Any]] = None
        self.recorded: Optional[List[Any]] = None
        self._tasks: Dict[str, Optional[Dict[str, Any]]] = {}
        self._last_valid = time.monotonic()
        self._reader = threading.Thread(target=self._read_loop, name="reachy_mini-ws", daemon=True)
        self._reader.start()

    # -- receiving -----------------------------------------------------------
    def _read_loop(self) -> None:
        while True:
            text = self._ws.recv()
            if text is None:
                break
            try:
                msg = json.loads(text)
            except ValueError:
                continue
            if isinstance(msg, dict) and msg.get("type") in STATE_TYPES:
                self._on_message(msg)
        with self._cond:
            self._cond.notify_all()

    def _on_message(self, msg: Dict[str, Any]) -> None:
        kind = msg["type"]
        with self._cond:
            self._last_valid = time.monotonic()
            if kind == "joint_positions":
                self.joint_positions = {"head": msg.get("head_joint_positions"), "antennas": msg.get("antennas_joint_positions")}
            elif kind == "head_pose":
                self.head_pose = msg.get("head_pose")
            elif kind == "daemon_status":
                self.status = msg
            elif kind == "task_progress" and msg.get("uuid") in self._tasks:
                self._tasks[msg["uuid"]] = msg
            elif kind == "recorded_data":
                self.recorded = msg.get("data") or []
            self._cond.notify_all()

    def _wait(self, predicate: Any, timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(predicate, timeout=timeout)

    @property
    def is_alive(self) -> bool:
        return not self._ws.closed and time.monotonic() - self._last_valid < ALIVE_S

    def wait_for_connection(self, timeout: float = 5.0) -> None:
        if not self._wait(lambda: self.joint_positions is not None and self.head_pose is not None, timeout):
            self.disconnect()
            raise TimeoutError("Timeout while waiting for connection with the server.")

    def get_status(self, timeout: float = 5.0) -> Dict[str, Any]:
        # The stream sends daemon_status once a second; asking the same
        # daemon's REST status saves an app up to a second at start.
        if self.status is None:
            self._status_over_rest()
        if not self._wait(lambda: self.status is not None, timeout):
            raise TimeoutError("Status not received in time.")
        assert self.status is not None
        return self.status

    # -- sending -------------------------------------------------------------
    def send_command(self, command: Dict[str, Any]) -> None:
        if not self.is_alive:
            raise ConnectionError("Lost connection with the server.")
        self._ws.send(json.dumps(command))

    def send_task(self, req: Dict[str, Any]) -> str:
        task_id = str(uuidlib.uuid4())
        with self._cond:
            self._tasks[task_id] = None
        self.send_command({"type": "task", "uuid": task_id, "req": req, "timestamp": datetime.now().isoformat()})
        return task_id

    def wait_for_task_completion(self, task_id: str, timeout: float) -> None:
        done = self._wait(lambda: self._tasks.get(task_id) is not None, timeout)
        with self._cond:
            result = self._tasks.pop(task_id, None)
        if not done or result is None:
            raise TimeoutError("Task did not complete in time.")
        if result.get("error"):
            raise Exception(f"Task failed with error: {result['error']}")

    def wait_for_recording(self, timeout: float) -> List[Any]:
        if not self._wait(lambda: self.recorded is not None, timeout):
            raise TimeoutError("Recorded data not received in time.")
        data, self.recorded = self.recorded or [], None
        return data

    def _status_over_rest(self) -> None:
        url = f"http://{self.host}:{self.port}/api/daemon/status"
        try:
            with urllib.request.urlopen(url, timeout=1.0) as resp:
                status = json.loads(resp.read())
        except (OSError, ValueError):
            return
        if isinstance(status, dict) and "state" in status:
            with self._cond:
                self.status = self.status or status

    # -- media (REST) --------------------------------------------------------
    def _media(self, action: str) -> None:
        url = f"http://{self.host}:{self.port}/api/media/{action}"
        try:
            urllib.request.urlopen(urllib.request.Request(url, data=b"", method="POST"), timeout=10).read()
        except OSError as err:  # the real SDK only logs this
            logger.warning("Could not %s media: %s", action, err)

    def release_media(self) -> None:
        self._media("release")

    def acquire_media(self) -> None:
        self._media("acquire")

    def disconnect(self) -> None:
        self._ws.close()
        # The reader drains the socket until the daemon ends the connection
        # (websocket.py close()), for 2 s at most; then the socket is closed.
        if self._reader is not threading.current_thread():
            self._reader.join(timeout=2)
        self._ws.release()
