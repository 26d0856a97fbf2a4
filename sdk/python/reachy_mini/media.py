"""Media without hardware: the stand-in's ``reachy_mini.media``.

The real SDK streams camera and audio over WebRTC from a robot that has them;
robotctl's simulated robot reports ``no_media``. Every media call is accepted,
logged once, and returns None, so an app that plays a sound still runs.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Set

logger = logging.getLogger("reachy_mini.media")


class NoMedia:
    def __init__(self) -> None:
        self._warned: Set[str] = set()

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name.startswith("__"):
            raise AttributeError(name)

        def unavailable(*_args: Any, **_kwargs: Any) -> None:
            if name not in self._warned:
                self._warned.add(name)
                logger.warning("media.%s: no media on this robot (reachy_mini stand-in)", name)
            return None

        return unavailable
