"""Named points inside long jobs where a crash test can hold a real worker process, to kill it there.

A process started with ARENA_PAUSE_AT=<name> stops at that point for up to PAUSE_SECONDS, after
writing its pid to the file ARENA_PAUSE_FLAG (when set), so the test knows it has arrived. Without
ARENA_PAUSE_AT (every process but such a test's), `reached` only compares two strings.

    crash_points.reached("finish.rated")         # in workers/endgame.py, after the rating step
"""
from __future__ import annotations

import os
import threading
from pathlib import Path
from .settings import current

PAUSE_SECONDS = 60.0


def reached(name: str) -> None:
    if current().pause_at != name:
        return
    flag = current().pause_flag
    if flag:
        Path(flag).write_text(str(os.getpid()))
    threading.Event().wait(PAUSE_SECONDS)
