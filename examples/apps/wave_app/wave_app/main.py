import math
import sys
import threading
import time

from reachy_mini import ReachyMini, ReachyMiniApp
from reachy_mini.utils import create_head_pose


class WaveApp(ReachyMiniApp):
    """A second cooperative app: the body sways, the head nods, the antennas wave in turn."""

    # No settings page: this app only moves.
    custom_app_url: str | None = None

    def run(self, reachy_mini: ReachyMini, stop_event: threading.Event) -> None:
        t0 = time.time()
        while not stop_event.is_set():
            t = time.time() - t0
            body_yaw = math.radians(20.0) * math.sin(2.0 * math.pi * 0.25 * t)
            pitch_deg = 10.0 * math.sin(2.0 * math.pi * 0.5 * t)
            wave = math.radians(40.0) * math.sin(2.0 * math.pi * 1.0 * t)
            reachy_mini.set_target(
                head=create_head_pose(pitch=pitch_deg, degrees=True),
                antennas=[wave, wave],
                body_yaw=body_yaw,
            )
            time.sleep(0.02)


if __name__ == "__main__":
    app = WaveApp()
    try:
        app.wrapped_run()
    except KeyboardInterrupt:
        app.stop()
    sys.exit(0)
