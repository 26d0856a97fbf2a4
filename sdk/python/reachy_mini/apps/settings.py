"""The app's own settings page: a tiny stdlib web app (http.server in a thread).

Serves ``<module dir>/static`` (``GET /`` is ``static/index.html``, the rest
under ``/static/…`` like the real SDK's FastAPI mount) and JSON routes
registered with ``@settings_app.post("/path")`` / ``.get`` / ``.put`` /
``.delete``. A handler that takes an argument receives the parsed JSON body
(or, for GET, the query as a dict); it returns any JSON-able value.
"""

from __future__ import annotations

import inspect
import json
import mimetypes
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Dict, Optional, Tuple
from urllib.parse import parse_qsl, unquote, urlsplit

Handler = Callable[..., Any]
MAX_BODY = 1 << 20


class SettingsApp:
    def __init__(self, static_dir: Optional[Path]) -> None:
        self.static_dir = static_dir
        self.routes: Dict[Tuple[str, str], Handler] = {}
        self._server: Optional[ThreadingHTTPServer] = None
        self._thread: Optional[threading.Thread] = None

    # -- route decorators -------------------------------------------------
    def route(self, method: str, path: str) -> Callable[[Handler], Handler]:
        def register(fn: Handler) -> Handler:
            self.routes[(method.upper(), path)] = fn
            return fn
        return register

    def get(self, path: str) -> Callable[[Handler], Handler]:
        return self.route("GET", path)

    def post(self, path: str) -> Callable[[Handler], Handler]:
        return self.route("POST", path)

    def put(self, path: str) -> Callable[[Handler], Handler]:
        return self.route("PUT", path)

    def delete(self, path: str) -> Callable[[Handler], Handler]:
        return self.route("DELETE", path)

    # -- server -----------------------------------------------------------
    @property
    def port(self) -> Optional[int]:
        return None if self._server is None else self._server.server_address[1]

    def start(self, host: str, port: int) -> None:
        """Bind and serve in a daemon thread (raises OSError if the port is taken)."""
        app = self

        class _Bound(_RequestHandler):
            settings = app

        self._server = ThreadingHTTPServer((host, port), _Bound)
        self._server.daemon_threads = True
        # A short poll interval keeps stop() (and so app shutdown) fast.
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,),
                                        name="settings-app", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None

    # -- dispatch (called by the request handler) -----------------------------
    def call(self, method: str, path: str, query: str, body: bytes) -> Optional[Tuple[int, Any]]:
        fn = self.routes.get((method, path))
        if fn is None:
            return None
        if method == "GET":
            arg: Any = dict(parse_qsl(query))
        else:
            try:
                arg = json.loads(body) if body else None
            except ValueError:
                return 422, {"detail": "Request body is not valid JSON"}
        params = list(_signature(fn).parameters.values())
        if not params:
            return 200, fn()
        # A pydantic model annotation (the real settings_app is FastAPI) gets the body validated into it.
        model = getattr(params[0].annotation, "model_validate", None)
        return 200, fn(model(arg) if callable(model) and isinstance(arg, dict) else arg)

    def static_file(self, path: str) -> Optional[Path]:
        if self.static_dir is None:
            return None
        if path == "/":
            rel = "index.html"
        elif path.startswith("/static/"):
            rel = path[len("/static/"):]
        else:
            return None
        root = self.static_dir.resolve()
        target = (root / unquote(rel)).resolve()
        # No escaping the static folder with ../
        if root != target and root not in target.parents:
            return None
        return target if target.is_file() else None


def _signature(fn: Handler) -> inspect.Signature:
    try:
        return inspect.signature(fn, eval_str=True)
    except Exception:  # an annotation that names a local class cannot be evaluated
        return inspect.signature(fn)


class _RequestHandler(BaseHTTPRequestHandler):
    settings: SettingsApp
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass  # an app's stdout is its log: keep it for the app's own lines

    def _handle(self) -> None:
        parts = urlsplit(self.path)
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            return self._send_json(413, {"detail": "Request body too large"})
        body = self.rfile.read(length) if length else b""
        try:
            result = self.settings.call(self.command, parts.path, parts.query, body)
        except Exception as err:  # a handler bug must not kill the server thread
            return self._send_json(500, {"detail": f"{type(err).__name__}: {err}"})
        if result is not None:
            return self._send_json(*result)
        if self.command in ("GET", "HEAD"):
            file = self.settings.static_file(parts.path)
            if file is not None:
                return self._send_file(file)
        self._send_json(404, {"detail": "Not Found"})

    do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _handle

    def _send_json(self, status: int, value: Any) -> None:
        self._send(status, json.dumps(value).encode(), "application/json")

    def _send_file(self, file: Path) -> None:
        kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        self._send(200, file.read_bytes(), kind)

    def _send(self, status: int, data: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        # Apps reuse port 8042: a cached page of another app would be wrong.
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)
