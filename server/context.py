"""The application's shared objects: its settings, one Redis client and one game service per app.

The service is given its follow-up hook here, once (workers/followup.py: clocks, bots,
notifications, the end of the game after every change); a test may give another as FOLLOW_UP.
A web process clears the debts of hooks that ran a moment later, many in one round trip
(events/followup.py, `settle_later`), so that a move costs no trip of its own for it.
"""
from __future__ import annotations

from flask import Flask, current_app

from events import GameService, connect
from events.settings import Settings
from workers import followup


class Arena:
    """Flask extension: `Arena.of()` gives the current app's settings, Redis client and GameService."""

    def __init__(self, app: Flask, settings: Settings) -> None:
        self.settings = settings
        # a URL create_app's config names: everything there; else as events.connect() chooses
        self.redis = app.config.get("REDIS_CLIENT") or connect(app.config.get("REDIS_URL"))
        self.service = GameService(self.redis, follow_up=app.config.get("FOLLOW_UP", followup.hook),
                                   **{"settle_later": True, **app.config.get("SERVICE_OPTIONS", {})})
        app.extensions["arena"] = self

    @staticmethod
    def of() -> "Arena":
        return current_app.extensions["arena"]


def settings() -> Settings:
    """The current app's settings (events/settings.py)."""
    return Arena.of().settings
