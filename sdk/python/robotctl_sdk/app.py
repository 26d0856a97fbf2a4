"""RobotApp: the base class of an app (spec robot-daemon §5)."""

from __future__ import annotations

import abc
import os
import sys
import threading
import traceback
from pathlib import Path
from typing import Any, Optional
from urllib.parse import urlsplit

from .robot import Robot
from .settings import SettingsApp

# Lets a test or a second app on one machine move the settings page (e.g.
# http://127.0.0.1:0 for a free port) without editing the app's code.
SETTINGS_URL_ENV = "ROBOTCTL_APP_SETTINGS_URL"


class RobotApp(abc.ABC):
    custom_app_url: Optional[str] = None
    dont_start_webserver: bool = False

    def __init__(self) -> None:
        self.stop_event = threading.Event()
        self.error: str = ""
        self.settings_app: Optional[SettingsApp] = None
        if self.custom_app_url is not None and not self.dont_start_webserver:
            static = self._module_dir() / "static"
            self.settings_app = SettingsApp(static if static.is_dir() else None)

    @abc.abstractmethod
    def run(self, robot: Robot, stop_event: threading.Event) -> None:
        """The app: loop until ``stop_event`` is set (or return when done)."""

    def make_robot(self) -> Robot:
        """The robot client ``wrapped_run`` passes to ``run`` (override in tests)."""
        return Robot()

    def wrapped_run(self, *args: Any, **kwargs: Any) -> None:
        """Serve the settings page, connect the robot, run, always clean up."""
        self._start_settings()
        robot: Optional[Robot] = None
        try:
            robot = Robot(*args, **kwargs) if args or kwargs else self.make_robot()
            robot.connect()
            self.run(robot, self.stop_event)
        except Exception:
            self.error = traceback.format_exc()
            raise
        finally:
            self.stop_event.set()
            if self.settings_app is not None:
                self.settings_app.stop()
            if robot is not None:
                robot.close()

    def stop(self) -> None:
        self.stop_event.set()
        print("App is stopping...", flush=True)

    @property
    def settings_url(self) -> Optional[str]:
        """Where the settings page really listens (after wrapped_run started it)."""
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
            # Another app (or a stale one) holds the port: the app itself
            # still runs, only its settings page is missing.
            print(f"Settings page not started on {host}:{port}: {err}", file=sys.stderr, flush=True)

    def _module_dir(self) -> Path:
        module = sys.modules.get(type(self).__module__)
        file = getattr(module, "__file__", None)
        return Path(file).resolve().parent if file else Path.cwd()


ReachyMiniApp = RobotApp
