import math
import sys
import threading
import time

from robotctl_sdk import Robot, RobotApp, create_head_pose


class HelloApp(RobotApp):
    # The app's own settings page (served from static/ while the app runs).
    custom_app_url: str | None = "http://0.0.0.0:8042"

    def run(self, robot: Robot, stop_event: threading.Event) -> None:
        antennas_enabled = True

        @self.settings_app.post("/antennas")
        def update_antennas_state(state: dict) -> dict:
            nonlocal antennas_enabled
            antennas_enabled = bool(state.get("enabled"))
            return {"antennas_enabled": antennas_enabled}

        t0 = time.time()
        while not stop_event.is_set():
            t = time.time() - t0

            yaw_deg = 30.0 * math.sin(2.0 * math.pi * 0.2 * t)
            head_pose = create_head_pose(yaw=yaw_deg, degrees=True)

            if antennas_enabled:
                amp = math.radians(25.0)
                a = amp * math.sin(2.0 * math.pi * 0.5 * t)
                antennas = [a, -a]
            else:
                antennas = [0.0, 0.0]

            robot.set_target(head=head_pose, antennas=antennas)
            time.sleep(0.02)


if __name__ == "__main__":
    app = HelloApp()
    try:
        app.wrapped_run()
    except KeyboardInterrupt:
        app.stop()
    sys.exit(0)
