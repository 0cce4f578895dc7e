"""The application's shared objects: one Redis client and one game service per app."""
from __future__ import annotations

from flask import Flask, current_app

from events import GameService, connect


class Arena:
    """Flask extension: `Arena.of()` gives the current app's Redis client and GameService."""

    def __init__(self, app: Flask) -> None:
        self.redis = app.config.get("REDIS_CLIENT") or connect(app.config.get("REDIS_URL"))
        self.service = GameService(self.redis, **app.config.get("SERVICE_OPTIONS", {}))
        app.extensions["arena"] = self

    @staticmethod
    def of() -> "Arena":
        return current_app.extensions["arena"]
