"""A tiny stdlib stand-in for the daemon's motion/state routes that records calls.

It is only the other end of the wire for the SDK's unit tests; the real
daemon-side behaviour is tested against robotctl's daemon runtime.
"""

from __future__ import annotations

import json
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, List, Tuple

IDENTITY = [1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0, 0, 0, 0, 0, 1.0]


class Recorder:
    def __init__(self) -> None:
        self.calls: List[Tuple[str, str, Any]] = []
        self.connections = 0
        self.running: List[str] = []
        self.close_next = False
        self.lock = threading.Lock()
        rec = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def setup(self) -> None:
                super().setup()
                with rec.lock:
                    rec.connections += 1

            def log_message(self, *_a: Any) -> None:
                pass

            def _handle(self) -> None:
                n = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(n)) if n else None
                with rec.lock:
                    rec.calls.append((self.command, self.path, body))
                status, value = rec.answer(self.command, self.path, body)
                data = json.dumps(value).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                if rec.close_next:
                    rec.close_next = False
                    self.send_header("Connection", "close")
                    self.close_connection = True
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = _handle

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def answer(self, method: str, path: str, body: Any) -> Tuple[int, Any]:
        if path == "/api/move/set_target":
            return 200, {"status": "ok"}
        if path in ("/api/move/goto", "/api/move/play/wake_up", "/api/move/play/goto_sleep"):
            move = str(uuid.uuid4())
            self.running.append(move)
            # The move "finishes" 50 ms later.
            threading.Timer(0.05, lambda: self.running.remove(move)).start()
            return 200, {"uuid": move}
        if path == "/api/move/running":
            return 200, [{"uuid": u} for u in self.running]
        if path.startswith("/api/state/present_head_pose"):
            return 200, {"m": IDENTITY}
        if path == "/api/state/present_antenna_joint_positions":
            return 200, [-0.1745, 0.1745]
        if path == "/api/state/present_body_yaw":
            return 200, 0.25
        if path.startswith("/api/state/full"):
            return 200, {"head_joints": [0.0] * 7, "antennas_position": [0.1, -0.1]}
        if path.startswith("/api/motors/set_mode/"):
            return 200, {"status": "ok"}
        return 404, {"detail": "Not Found"}

    def bodies(self, path: str) -> List[Any]:
        with self.lock:
            return [b for (_m, p, b) in self.calls if p == path]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
