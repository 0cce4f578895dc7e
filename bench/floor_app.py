"""The floor of bench/audience.py: a bare Flask app whose move is one Lua append, with a stream.

    POST /floor/<key>          {"version": v} -> one Lua call: XADD "<v+1>-0" if XLEN is v
    GET  /floor/<key>/stream   the key's entries as SSE (Last-Event-ID = version), on the front only

Served the same ways as the real server: `create_floor_app()` under gunicorn (gthread: moves only),
or `create_floor_front()` under the async front (server/streams/), whose hub then follows the keys.
"""
from __future__ import annotations

import json
import os
import time

from flask import Flask, request
from marshmallow import EXCLUDE, Schema

from events.settings import current
from server import sse
from server.context import Arena

APPEND = """
if redis.call('XLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return -1 end
redis.call('XADD', KEYS[1], (tonumber(ARGV[1]) + 1) .. '-0', 'e', ARGV[2])
return tonumber(ARGV[1]) + 1
"""


class FloorQuery(Schema):
    class Meta:
        unknown = EXCLUDE


def floor_key(key: str) -> str:
    return f"floor:{{{key}}}"


def create_floor_app() -> Flask:
    app = Flask(__name__)
    app.config["REDIS_URL"] = os.environ.get("REDIS_URL")
    arena = Arena(app, current())
    append = arena.redis.register_script(APPEND)

    @app.post("/floor/<key>")
    def move(key: str):
        version = int(request.get_json()["version"])
        done = append(keys=[floor_key(key)], args=[version, json.dumps({"version": version + 1, "t": time.time()})])
        return ({"version": done}, 200) if done >= 0 else ({"conflict": True}, 409)

    return app


def open_floor(query: dict, key: str) -> sse.Source:
    return sse.Source(floor_key(key), (int(request.headers.get("Last-Event-ID", 0)), 0), render_floor)


def render_floor(entries, viewer: None = None) -> list[sse.Frame]:
    frames = []
    for sid, fields in entries:
        data = json.loads(sse.field(fields, "e"))
        frames.append(sse.Frame(sse.parse_id(sid), sse.frame(data["version"], "moved", data)))
    return frames


def create_floor_front():
    from server.streams.front import create_front
    from server.streams.routes import StreamRoute
    return create_front(create_floor_app(), [StreamRoute("/floor/{key}/stream", open_floor, FloorQuery)])
