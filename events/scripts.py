"""Every Lua script of the project lives under events/lua/; this runs them by their SHA.

    APPEND = scripts.lua("append.lua")
    scripts.run_script(redis, APPEND, keys=[...], args=[...])     # or on a pipeline: client=pipe
"""
from __future__ import annotations

import threading
from importlib import resources
from typing import Any

_scripts: dict[str, Any] = {}
_lock = threading.Lock()


def lua(name: str) -> str:
    """The text of the script events/lua/<name>."""
    return resources.files(__package__).joinpath(f"lua/{name}").read_text()


def run_script(redis: Any, text: str, keys: list[Any], args: list[Any], client: Any = None) -> Any:
    """Run a Lua script by its SHA (loaded on first use), on `client` (a pipeline) or `redis`."""
    with _lock:
        script = _scripts.get(text)
        if script is None:
            script = _scripts[text] = redis.register_script(text)
    return script(keys=keys, args=args, client=client if client is not None else redis)
