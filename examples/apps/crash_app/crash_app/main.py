import sys
import threading
import time

from reachy_mini import ReachyMini, ReachyMiniApp
from reachy_mini.utils import create_head_pose


class CrashApp(ReachyMiniApp):
    """Moves for about 0.3 s, says why on stderr, then crashes (exit code 1)."""

    custom_app_url: str | None = None

    def run(self, reachy_mini: ReachyMini, stop_event: threading.Event) -> None:
        t0 = time.time()
        while time.time() - t0 < 0.3 and not stop_event.is_set():
            reachy_mini.set_target(head=create_head_pose(roll=5.0), antennas=[0.3, -0.3])
            time.sleep(0.02)
        print("crash_app: the sensor check failed, giving up", file=sys.stderr, flush=True)
        raise RuntimeError("crash_app crashed on purpose")


if __name__ == "__main__":
    app = CrashApp()
    try:
        app.wrapped_run()
    except KeyboardInterrupt:
        app.stop()
    sys.exit(0)
