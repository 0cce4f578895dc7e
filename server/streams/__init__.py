"""The async tier: each long-lived connection is a coroutine, fed by shared Redis readers.

    front.py     the ASGI app (Starlette): stream routes native, the Flask app mounted with a2wsgi
    routes.py    the list of stream endpoints (ROUTES)
    tier.py      one stream request: caps, opening through the Flask app, following the hub
    hub.py       blocking XREADs (one per 128 followed keys), fanned out to the subscribers
    presence.py  the viewers of open streams, written for the whole process in one pipeline
    standing.py  a stream's token and mutes, trusted a few seconds, told at once of changes (pub/sub)
    slots.py     open-stream counts per address and per token, kept in Redis for every process
    proxies.py   the client address behind ARENA_PROXY_HOPS trusted proxies
    protocol.py  uvicorn's HTTP protocol with a header deadline, a header size cap, a connection cap
    body.py      request bodies read on the loop (bounded) before a WSGI thread is taken

Adding a stream takes an opener and one line. The opener runs in a Flask request context, so
`auth`, `Arena.of()` and every problem+json refusal work as in a view; it answers with the Redis
stream key to follow, the id to resume after and a render that filters entries for this viewer:

    # server/lobby.py
    def open_lobby_stream(query: dict) -> sse.Source:
        player = auth.require_player(Arena.of().redis)                 # 401 without a player token
        after = sse.parse_id(request.headers.get("Last-Event-ID", query["after"]))
        return sse.Source(keys.lobby(), after, render_lobby, viewer=None)

    def render_lobby(entries, viewer) -> list[sse.Frame]:              # pure: viewers alike share it
        return [sse.Frame(sse.parse_id(sid), sse.frame(sid.decode(), "table", json.loads(sse.field(f, "data"))))
                for sid, f in entries]

    # server/streams/routes.py
    StreamRoute("/lobby/stream", lobby.open_lobby_stream, LobbyStreamQuery),

Entries are appended with XADD to that key by whoever changes the thing watched (ids made by Redis,
or "<version>-0" as the game logs do); the tier does resume (Last-Event-ID), heartbeats, caps and
reconnection to Redis. A Flask view of the same path documents it in the OpenAPI spec: it runs the
opener (the same refusals) and answers 501 `streams_not_served_here` (the Flask app alone, under
plain WSGI, serves no stream).
A game's chat rides on its own key the same way, with a render that drops what a seat may not
read; `Source(..., presence=(game_id, viewer))` counts the viewer as watching while it is open.
"""
