"""One keep-alive JSON connection to the daemon (http.client, thread-safe).

A 50 Hz set_target loop must not pay a TCP handshake per call, so the
connection is kept open and reopened once if the daemon closed it.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from typing import Any, Optional
from urllib.parse import urlsplit

_RETRYABLE = (http.client.RemoteDisconnected, http.client.CannotSendRequest,
              http.client.ResponseNotReady, BrokenPipeError, ConnectionResetError,
              ConnectionAbortedError)


class DaemonError(RuntimeError):
    """The daemon answered with an error status."""

    def __init__(self, method: str, path: str, status: int, detail: Any) -> None:
        super().__init__(f"{method} {path} failed ({status}): {detail}")
        self.status = status
        self.detail = detail


class JsonConnection:
    def __init__(self, base_url: str, timeout: float = 5.0) -> None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "") or not parts.hostname:
            raise ValueError(f"Daemon URL must look like http://HOST:PORT, got {base_url!r}")
        self.base_url = base_url.rstrip("/")
        self.host = parts.hostname
        self.port = parts.port or 80
        self.prefix = parts.path.rstrip("/")
        self.timeout = timeout
        self._conn: Optional[http.client.HTTPConnection] = None
        self._lock = threading.Lock()

    def connect(self, wait: float = 0.0) -> None:
        """Open the connection, retrying for ``wait`` seconds while refused."""
        deadline = time.monotonic() + wait
        while True:
            try:
                with self._lock:
                    self._open()
                return
            except OSError as err:
                if time.monotonic() >= deadline:
                    raise ConnectionError(
                        f"Cannot reach the robot daemon at {self.base_url}: {err}. "
                        "Is the daemon running? (set ROBOT_DAEMON_URL to use another address)"
                    ) from None
                time.sleep(0.05)

    def _open(self) -> http.client.HTTPConnection:
        if self._conn is None:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            conn.connect()
            # Small JSON requests: send them now rather than wait for Nagle.
            if conn.sock is not None:
                conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._conn = conn
        return self._conn

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def request(self, method: str, path: str, body: Any = None) -> Any:
        payload = None if body is None else json.dumps(body).encode()
        headers = {"Accept": "application/json"}
        if payload is not None:
            headers["Content-Type"] = "application/json"
        with self._lock:
            status, raw = self._send(method, path, payload, headers)
        data = json.loads(raw) if raw else None
        if status >= 400:
            detail = data.get("detail", data) if isinstance(data, dict) else data
            raise DaemonError(method, path, status, detail)
        return data

    def _send(self, method: str, path: str, payload: Optional[bytes], headers: dict) -> tuple:
        for attempt in (1, 2):
            conn = self._open()
            try:
                conn.request(method, self.prefix + path, body=payload, headers=headers)
                resp = conn.getresponse()
                raw = resp.read()
                if resp.will_close:
                    conn.close()
                    self._conn = None
                return resp.status, raw
            except _RETRYABLE:
                # The daemon closed an idle keep-alive connection: reopen once.
                conn.close()
                self._conn = None
                if attempt == 2:
                    raise
            except (OSError, http.client.HTTPException):
                conn.close()
                self._conn = None
                raise
        raise AssertionError("unreachable")
