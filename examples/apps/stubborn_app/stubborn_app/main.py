import os
import signal
import subprocess
import sys
import threading
import time

from reachy_mini import ReachyMini, ReachyMiniApp
from reachy_mini.utils import create_head_pose

# A helper process that also ignores SIGINT, so a daemon must kill the whole
# process group (not only the app) to leave nothing behind. It gives up by
# itself after 5 minutes so a broken test cannot leak it forever.
CHILD = "import signal, time; signal.signal(signal.SIGINT, signal.SIG_IGN); time.sleep(300)"


class StubbornApp(ReachyMiniApp):
    """Ignores SIGINT and its stop_event: only a kill ends it."""

    custom_app_url: str | None = None

    def run(self, reachy_mini: ReachyMini, stop_event: threading.Event) -> None:
        child = subprocess.Popen([sys.executable, "-c", CHILD])
        print(f"stubborn_app pid {os.getpid()} child pid {child.pid}", flush=True)
        t0 = time.time()
        while True:  # stop_event is ignored on purpose
            yaw = 10.0 if int(time.time() - t0) % 2 else -10.0
            reachy_mini.set_target(head=create_head_pose(yaw=yaw))
            time.sleep(0.02)


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    app = StubbornApp()
    try:
        app.wrapped_run()
    except KeyboardInterrupt:
        app.stop()
    sys.exit(0)
