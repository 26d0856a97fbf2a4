"""ReachyMiniApp: the base class of an app, with the real SDK's contract.

``run(reachy_mini, stop_event)`` is the app; ``wrapped_run()`` serves the
settings page (``settings_app``, at ``custom_app_url``) in a thread, connects
a ``ReachyMini``, runs, records a traceback on error, and always cleans up;
``stop()`` sets ``stop_event``.

The settings page binds the host and port of ``custom_app_url`` (the real
apps' ``http://0.0.0.0:8042``) unless ``ROBOTCTL_APP_SETTINGS_URL`` says
otherwise: robotctl's daemon sets it to a free port for each app it starts,
so apps of several simulated robots on one machine never collide.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
import threading
import traceback
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any, Optional
from urllib.parse import urlsplit

from ..reachy_mini import ReachyMini, daemon_address
from .settings import SettingsApp

SETTINGS_URL_ENV = "ROBOTCTL_APP_SETTINGS_URL"


class ReachyMiniApp(ABC):
    custom_app_url: Optional[str] = None
    dont_start_webserver: bool = False
    request_media_backend: Optional[str] = None

    def __init__(self, running_on_wireless: bool = False) -> None:
        self.stop_event = threading.Event()
        self.error: str = ""
        self.logger = logging.getLogger("reachy_mini.app")
        self.daemon_on_localhost = self._check_daemon_on_localhost()
        self.media_backend = self.request_media_backend if self.request_media_backend is not None else "default"
        self.settings_app: Optional[SettingsApp] = None
        if self.custom_app_url is not None and not self.dont_start_webserver:
            static = self._module_dir() / "static"
            self.settings_app = SettingsApp(static if static.is_dir() else None)

    @staticmethod
    def _check_daemon_on_localhost(timeout: float = 0.5) -> bool:
        host, port = daemon_address()
        try:
            with socket.create_connection((host, port), timeout=timeout):
                return True
        except OSError:
            return False

    @abstractmethod
    def run(self, reachy_mini: ReachyMini, stop_event: threading.Event) -> None:
        """The app: loop until ``stop_event`` is set (or return when done)."""

    def wrapped_run(self, *args: Any, **kwargs: Any) -> None:
        self._start_settings()
        try:
            mode = "localhost_only" if self.daemon_on_localhost else "network"
            with ReachyMini(*args, media_backend=self.media_backend, connection_mode=mode, **kwargs) as reachy_mini:
                self.run(reachy_mini, self.stop_event)
        except Exception:
            self.error = traceback.format_exc()
            raise
        finally:
            self.stop_event.set()
            if self.settings_app is not None:
                self.settings_app.stop()

    def stop(self) -> None:
        self.stop_event.set()
        print("App is stopping...", flush=True)

    @property
    def settings_url(self) -> Optional[str]:
        """Where the settings page really listens (once wrapped_run started it)."""
        if self.settings_app is None or self.settings_app.port is None:
            return None
        host = urlsplit(self._settings_address()).hostname or "127.0.0.1"
        host = "127.0.0.1" if host == "0.0.0.0" else host
        return f"http://{host}:{self.settings_app.port}"

    def _settings_address(self) -> str:
        return os.environ.get(SETTINGS_URL_ENV) or self.custom_app_url or ""

    def _start_settings(self) -> None:
        if self.settings_app is None:
            return
        url = urlsplit(self._settings_address())
        host = url.hostname or "0.0.0.0"
        port = 8042 if url.port is None else url.port
        try:
            self.settings_app.start(host, port)
        except OSError as err:
            # The port is taken (another app): the app still runs, without its page, and says so.
            print(f"Settings page not started on {host}:{port}: {err}", file=sys.stderr, flush=True)

    def _module_dir(self) -> Path:
        module = sys.modules.get(type(self).__module__)
        file = getattr(module, "__file__", None)
        return Path(file).resolve().parent if file else Path.cwd()
