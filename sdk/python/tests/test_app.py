import contextlib
import io
import json
import os
import tempfile
import threading
import time
import unittest
import urllib.request
from pathlib import Path
from unittest import mock

from reachy_mini import ReachyMiniApp

from .daemon import daemon_url, full_state


def fetch(url, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=5) as resp:
        return resp.status, dict(resp.headers), resp.read()


class AppTest(unittest.TestCase):
    def setUp(self):
        self.url = daemon_url(self)
        self.tmp = tempfile.TemporaryDirectory()
        static = Path(self.tmp.name) / "static"
        static.mkdir()
        (static / "index.html").write_text("<h1>settings</h1>")
        (static / "main.js").write_text("console.log(1)")
        env = {"ROBOT_DAEMON_URL": self.url, "ROBOTCTL_APP_SETTINGS_URL": "http://127.0.0.1:0"}
        self.env = mock.patch.dict(os.environ, env)
        self.env.start()
        self.static_root = Path(self.tmp.name)

    def tearDown(self):
        self.env.stop()
        self.tmp.cleanup()

    def make_app(self, body):
        root = self.static_root

        class SettingsApp(ReachyMiniApp):
            custom_app_url = "http://0.0.0.0:8042"

            def _module_dir(self):
                return root

            def run(self, robot, stop_event):
                body(self, robot, stop_event)

        return SettingsApp()

    def test_settings_page_routes_and_run(self):
        seen = {}

        def body(app, robot, stop_event):
            @app.settings_app.post("/antennas")
            def antennas(state):
                return {"antennas_enabled": bool(state["enabled"])}

            robot.set_target(antennas=[0.1, 0.1])
            time.sleep(0.1)  # fire-and-forget: let the daemon apply it before run() returns
            url = app.settings_url
            seen["index"] = fetch(url + "/")
            seen["js"] = fetch(url + "/static/main.js")
            seen["route"] = fetch(url + "/antennas", {"enabled": False})
            try:
                fetch(url + "/static/../../etc/passwd")
            except urllib.error.HTTPError as err:
                seen["escape"] = err.code

        app = self.make_app(body)
        app.wrapped_run()
        status, headers, data = seen["index"]
        self.assertEqual((status, data), (200, b"<h1>settings</h1>"))
        self.assertEqual(headers["Cache-Control"], "no-store")
        self.assertEqual(seen["js"][2], b"console.log(1)")
        self.assertEqual(json.loads(seen["route"][2]), {"antennas_enabled": False})
        self.assertEqual(seen["escape"], 404)
        self.assertTrue(app.stop_event.is_set())
        self.assertIsNone(app.settings_url)  # server stopped after run
        self.assertEqual(full_state(self.url)["antennas_position"], [0.1, 0.1])

    def test_exception_is_recorded_and_reraised(self):
        def body(app, robot, stop_event):
            raise RuntimeError("boom")

        app = self.make_app(body)
        with self.assertRaises(RuntimeError):
            app.wrapped_run()
        self.assertIn("RuntimeError: boom", app.error)
        self.assertTrue(app.stop_event.is_set())

    def test_stop_sets_event_and_prints(self):
        started = threading.Event()

        def body(app, robot, stop_event):
            started.set()
            stop_event.wait(5)

        app = self.make_app(body)
        worker = threading.Thread(target=app.wrapped_run)
        worker.start()
        started.wait(5)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            app.stop()
        worker.join(5)
        self.assertFalse(worker.is_alive())
        self.assertEqual(out.getvalue(), "App is stopping...\n")

    def test_busy_port_does_not_stop_the_app(self):
        ran = []
        blocker = self.make_app(lambda *a: None)
        blocker.settings_app.start("127.0.0.1", 0)
        try:
            with mock.patch.dict(os.environ, {"ROBOTCTL_APP_SETTINGS_URL": f"http://127.0.0.1:{blocker.settings_app.port}"}):
                app = self.make_app(lambda *a: ran.append(1))
                err = io.StringIO()
                with contextlib.redirect_stderr(err):
                    app.wrapped_run()
        finally:
            blocker.settings_app.stop()
        self.assertEqual(ran, [1])
        self.assertIn("Settings page not started", err.getvalue())

    def test_no_webserver_without_url(self):
        class Plain(ReachyMiniApp):
            def run(self, robot, stop_event):
                pass

        self.assertIsNone(Plain().settings_app)


if __name__ == "__main__":
    unittest.main()
