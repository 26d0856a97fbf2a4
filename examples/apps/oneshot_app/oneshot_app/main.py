import sys
import threading

from reachy_mini import ReachyMini, ReachyMiniApp
from reachy_mini.utils import create_head_pose


class OneshotApp(ReachyMiniApp):
    """Nods once and exits 0 by itself (the daemon then reports `done`)."""

    custom_app_url: str | None = None

    def run(self, reachy_mini: ReachyMini, stop_event: threading.Event) -> None:
        reachy_mini.goto_target(head=create_head_pose(pitch=10.0), antennas=[0.5, -0.5], duration=0.3)
        reachy_mini.goto_target(head=create_head_pose(), antennas=[-0.1745, 0.1745], duration=0.3)
        print("oneshot_app: done", flush=True)


if __name__ == "__main__":
    app = OneshotApp()
    try:
        app.wrapped_run()
    except KeyboardInterrupt:
        app.stop()
    sys.exit(0)
