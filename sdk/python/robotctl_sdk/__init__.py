"""robotctl_sdk: write Reachy Mini apps that run on a real robot and on robotctl's simulated one.

Standard library only. ``RobotApp`` (alias ``ReachyMiniApp``) is the app base
class, ``Robot`` (alias ``ReachyMini``) talks to the daemon's REST API at
http://127.0.0.1:8000 (or ``ROBOT_DAEMON_URL``), ``create_head_pose`` builds
4x4 head poses.
"""

from .app import ReachyMiniApp, RobotApp
from .pose import REST_ANTENNAS, REST_HEAD_POSE, create_head_pose
from .robot import DEFAULT_DAEMON_URL, ReachyMini, Robot
from ._http import DaemonError

__version__ = "0.1.0"

__all__ = [
    "RobotApp", "ReachyMiniApp", "Robot", "ReachyMini", "create_head_pose",
    "DaemonError", "DEFAULT_DAEMON_URL", "REST_HEAD_POSE", "REST_ANTENNAS",
]
