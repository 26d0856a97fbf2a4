"""reachy_mini, robotctl's offline stand-in for the Reachy Mini SDK.

The real package (``pip install reachy-mini``) is what apps declare and what a
real robot runs. Where it cannot be installed (no package index), robotctl's
daemon installs this one instead: the same import names apps use
(``ReachyMini``, ``ReachyMiniApp``, ``reachy_mini.utils.create_head_pose``),
over the same ``/ws/sdk`` protocol, on the standard library only.
"""

from .apps.app import ReachyMiniApp
from .reachy_mini import ReachyMini

__version__ = "1.10.0+robotctl.standin"
STANDIN = True

__all__ = ["ReachyMini", "ReachyMiniApp", "STANDIN"]
