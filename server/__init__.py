"""The HTTP API: a thin Flask layer over the engine and the event store.

    from server import create_app
    app = create_app()          # the process's settings (events/settings.py): REDIS_CLUSTER_URL, REDIS_URL or embedded
    app = create_app({"REDIS_URL": "redis://localhost:6379/0"})   # those, with some variables set otherwise
    app = create_app(settings=Settings.load())                   # settings built by the caller

The app serves every endpoint but the live streams, which the async front serves (server/streams/,
`arena serve` / `arena web`): under plain WSGI (`gunicorn 'server:create_app()'`) a stream URL makes
its usual checks, then answers 501 `streams_not_served_here`.
"""
from __future__ import annotations

import time
from typing import Any

from flask import Flask
from flask_smorest import Api

from events import layout
from events.connection import queue_for
from events.settings import Settings, current

from . import (accounts, chat, docs, email_prefs, errors, games, health, history, lobby, notifications, players,
               profiles, recovery, vacations, web)
from . import apidoc, headers, inputs, invitations, limits
from . import signing_keys
from . import conditionals, desk, end_of_game, notes, push, time_zone, rematch, reviews, table_prefs
from .context import Arena

API_SPEC = {
    "API_TITLE": "Tash-Kalar Arena", "API_VERSION": "1", "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": "/", "OPENAPI_JSON_PATH": "openapi.json",
}


def create_app(config: dict[str, Any] | None = None, settings: Settings | None = None) -> Flask:
    """The app with `settings` (default: the process's), any setting `config` names set otherwise
    (`{"ARENA_MAX_BODY": 1024}`), and `config` in Flask's config."""
    app = Flask(__name__)
    app.config.update(API_SPEC)
    app.config.update(config or {})
    app.json.sort_keys = False
    arena = Arena(app, (settings or current()).overridden(config or {}))
    api = Api(app, spec_kwargs={"info": {"description": "Play, watch, rewind and audit games of Tash-Kalar."},
                                "extra_plugins": [apidoc.ProblemResponses(app)]})
    api.spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    apidoc.prepare(api)
    app.extensions["openapi"] = api
    games.add_converters(app, api)
    for blueprint in (games.blp, history.blp, players.blp, notifications.blp, health.blp, invitations.blp):
        api.register_blueprint(blueprint)
    for blueprint in (accounts.blp, lobby.blp, chat.blp, profiles.blp, vacations.blp, email_prefs.blp, recovery.blp):
        api.register_blueprint(blueprint)
    api.register_blueprint(signing_keys.blp)
    api.register_blueprint(end_of_game.blp)
    api.register_blueprint(rematch.blp)
    api.register_blueprint(reviews.blp)
    api.register_blueprint(table_prefs.blp)
    api.register_blueprint(conditionals.blp)
    api.register_blueprint(push.blp)
    api.register_blueprint(desk.blp)
    api.register_blueprint(notes.blp)
    api.register_blueprint(time_zone.blp)
    docs.register(app)
    web.register(app)
    errors.register(app)
    invitations.register(app)
    limits.init(app, queue_for(arena.redis))     # counters on one Redis, beside RQ
    inputs.register(app)
    headers.register(app)
    layout.ensure_quietly(arena.redis, time.time(), arena.settings.lobby_table_ttl)
    return app
