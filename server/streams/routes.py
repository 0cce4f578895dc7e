"""Every long-lived endpoint the async tier serves: add yours here (see the package docstring)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from marshmallow import Schema

from .. import chat, history, lobby, notifications
from ..sse import Source


@dataclass(frozen=True)
class StreamRoute:
    path: str                                  # a Starlette path: "/games/{game_id}/stream"
    open: Callable[..., Source]                # opener(query, **path parameters), in a Flask request context
    query: type[Schema]                        # the query string's schema (a `follow` field is honoured)


ROUTES = [
    StreamRoute("/games/{game_id}/stream", history.open_stream, chat.GameStreamQuery),
    StreamRoute("/players/me/stream", notifications.open_stream, notifications.InboxQuery),
    StreamRoute("/lobby/stream", lobby.open_stream, lobby.LobbyStreamQuery),
    StreamRoute("/games/{game_id}/chat/stream", chat.open_stream, chat.ChatStreamQuery),
]
