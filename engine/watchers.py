"""The rules that look at every fact as it is emitted, handed to each Context that decides.

Why a list given to the context rather than imported by it: the context is the engine's lowest
layer (state and reducers), and these are rules; passing them in keeps the layers one-way.
"""
from __future__ import annotations

from . import gateway
from .context import Watcher

WATCHERS: tuple[Watcher, ...] = (gateway.follow,)     # the Nethervoid mark leaves a piece that lost it
