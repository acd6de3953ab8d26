"""The server's streams as iterators of dicts, that resume where they were cut.

``game_stream`` follows ``GET /games/{id}/stream``: a ``game`` line first (the game document and the
caller's legal moves), unless resumed with ``after``; then one ``events`` line per change, until the
game ends. ``account_stream`` follows ``GET /stream/events``: one ``awaiting`` line per game that awaits
the caller, then its account events. Both read NDJSON (one object a line) by default, or Server-Sent
Events with ``format="sse"``; keep-alive lines are skipped.

A dropped connection is opened again with ``after`` = the last version (or cursor) received, so no line
is lost or repeated; so is a stream refused for now (429, 503, or a proxy's 5xx such as a fan-out
engine's 502 in a burst of openings), after the server's ``Retry-After`` or a backoff. A server without
the stream endpoints (404 ``not_found`` for the route) is followed by polling instead, yielding lines of
the same shapes: the game through ``events?after=N&wait=S`` (long polling, or plain polling where the
server does not take ``wait``), the account through ``/me/inbox``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

import httpx

from dragonhall import errors
from dragonhall.transport import API, Retry
from dragonhall.types import EventList, GameDocument, Inbox, LegalMoves


class StreamClient(Protocol):
    """What the streams use of a ``dragonhall.Client``: its transport, and the reads that polling
    falls back on. (A protocol, so that the client may hand its streams on without a circle.)"""

    server: str
    token: str | None
    timeout: float
    http: httpx.Client
    sleep: Callable[[float], None]

    def headers(self, accept: str = "application/json") -> dict[str, str]: ...
    def wait(self, seconds: float, why: str) -> None: ...
    def game(self, game_id: str, seat: int | None = None) -> GameDocument: ...
    def events(
        self, game_id: str, after: int = 0, limit: int | None = None, wait: float | None = None
    ) -> EventList: ...
    def legal_moves(
        self, game_id: str, seat: int | None = None, offset: int | None = None, limit: int | None = None
    ) -> LegalMoves: ...
    def inbox(self) -> Inbox: ...


ENDED = ("finished", "abandoned")
NDJSON = "application/x-ndjson"
SSE = "text/event-stream"
READ_TIMEOUT = 30.0
"""Silence after which a stream is taken for dead and opened again: the server sends a keep-alive line
every 5 seconds of silence."""
RECONNECT = Retry(attempts=10, backoff=0.5, max_delay=10.0)
"""Reconnections in a row that receive nothing before a stream gives up (about a minute)."""

Line = dict[str, Any]
Idle = Callable[[], None] | None
"""Called on each keep-alive, each empty poll and before each reconnection: a hook to stop following a
stream from another thread (raise in it) while no line comes."""


class TruncatedLine(ValueError):
    """A stream line that is not whole JSON: the connection was cut inside it."""


# ------------------------------------------------------------------ line formats


def ndjson_lines(lines: Iterable[str]) -> Iterator[Line]:
    """The objects of NDJSON text lines; empty lines (keep-alives) are skipped."""
    return (line for line in _ndjson(lines) if line is not None)


def sse_lines(lines: Iterable[str]) -> Iterator[Line]:
    """The objects of Server-Sent Events: each event's ``data`` parsed as JSON (its ``type`` taken from
    ``event:`` when the data has none). Comments (``: keep-alive``) are skipped, and an event the
    connection cut before its blank line is dropped, as the SSE specification says."""
    return (line for line in _sse(lines) if line is not None)


def _ndjson(lines: Iterable[str]) -> Iterator[Line | None]:
    """NDJSON objects, and None for each keep-alive."""
    for text in lines:
        if not text.strip():
            yield None
            continue
        try:
            line = json.loads(text)
        except ValueError:
            raise TruncatedLine(text[:80]) from None
        if isinstance(line, dict):
            yield line


def _sse(lines: Iterable[str]) -> Iterator[Line | None]:
    """Server-Sent Events' objects, and None for each comment (keep-alive)."""
    data: list[str] = []
    event = ""
    for text in lines:
        if text == "":
            if data:
                yield _sse_event(event, "\n".join(data))
            data, event = [], ""
            continue
        if text.startswith(":"):
            yield None
            continue
        name, _, value = text.partition(":")
        value = value.removeprefix(" ")
        if name == "data":
            data.append(value)
        elif name == "event":
            event = value


def _sse_event(event: str, data: str) -> Line:
    try:
        line = json.loads(data)
    except ValueError:
        raise TruncatedLine(data[:80]) from None
    if not isinstance(line, dict):
        return {"type": event or "message", "data": line}
    if event and "type" not in line:
        line["type"] = event
    return line


# ------------------------------------------------------------------ following a stream


class _RouteMissing(Exception):
    """The server has no such stream endpoint."""


def _follow(
    client: StreamClient,
    path: str,
    after: int | None,
    position: Callable[[Line], int | None],
    *,
    fmt: str,
    last: Callable[[Line], bool] = lambda line: False,
    reconnect: Retry = RECONNECT,
    idle: Idle = None,
) -> Iterator[Line]:
    """The lines of ``path``, opened again after a cut with ``after`` = the last ``position`` seen.
    Ends after a line for which ``last`` is true, or raises ``_RouteMissing``."""
    accept = SSE if fmt == "sse" else NDJSON
    parse = _sse if fmt == "sse" else _ndjson
    failures = 0
    while True:
        headers = client.headers(accept)
        if after is not None and fmt == "sse":
            headers["Last-Event-ID"] = str(after)
        params = {} if after is None else {"after": after}
        timeout = httpx.Timeout(client.timeout, read=READ_TIMEOUT)
        retry_after: float | None = None
        lost: Exception | None = None
        refused = False
        try:
            with client.http.stream("GET", API + path, params=params, headers=headers, timeout=timeout) as response:
                if not response.is_success:
                    refused = True
                    retry_after = _refusal(response)
                else:
                    for line in parse(response.iter_lines()):
                        if line is None:
                            _call(idle)
                            continue
                        failures = 0
                        seen = position(line)
                        after = after if seen is None else seen
                        yield line
                        if last(line):
                            return
        except httpx.TransportError as error:
            lost = error
        except TruncatedLine:
            pass
        failures += 1
        if failures >= reconnect.attempts:
            raise _gave_up(client, path, failures, lost, refused) from lost
        _call(idle)
        client.wait(reconnect.delay(failures, retry_after), f"reconnecting to {path}")


def _gave_up(
    client: StreamClient, path: str, failures: int, lost: Exception | None, refused: bool
) -> errors.DragonhallError:
    """The error of a stream given up after ``failures`` tries: ``Unavailable`` (503) while the server
    answered each opening with a refusal, else ``Unreachable``, as for any call: ``unreachable`` when
    no connection was made, ``connection_lost`` when each broke (or ended) before a line came."""
    if refused:
        return errors.Unavailable(503, "stream_lost", f"{path}: refused {failures} times")
    if lost is not None:
        return errors.Unreachable.after(client.server, failures, lost)
    return errors.Unreachable(0, "connection_lost", f"{path}: the connection broke {failures} times before a line")


def _call(idle: Idle) -> None:
    if idle is not None:
        idle()


def _refusal(response: httpx.Response) -> float | None:
    """Raises the error of a refused stream, unless it is worth trying again (429, 503, a gateway's
    refusal): then the seconds to wait (None: the backoff's)."""
    response.read()
    failure = errors.from_response(response)
    if response.status_code == 405 or (response.status_code == 404 and failure.code == "not_found"):
        raise _RouteMissing(failure.message)
    if response.status_code in (429, 503) or errors.from_a_gateway(failure):
        return failure.retry_after  # an opening is a read: tried again
    raise failure


# ------------------------------------------------------------------ the game stream


def game_stream(
    client: StreamClient,
    game_id: str,
    after: int | None = None,
    *,
    format: str = "ndjson",
    wait: float = 30.0,
    poll_interval: float = 1.0,
    reconnect: Retry = RECONNECT,
    idle: Idle = None,
) -> Iterator[Line]:
    """The game as the caller may see it: a ``game`` line (without ``after``), then an ``events`` line
    per change, until the line that ends the game. ``wait`` and ``poll_interval`` set the polling that
    replaces the stream on a server without one. ``reconnect``: how often and after how long the stream
    is opened again, from where it was, after a cut connection or a refusal for now (429, 503, or a
    proxy's 5xx such as a fan-out engine's 502 in a burst of openings)."""
    version: list[int | None] = [after]

    def position(line: Line) -> int | None:
        version[0] = line.get("version", version[0])
        return version[0]

    try:
        yield from _follow(
            client,
            f"/games/{game_id}/stream",
            after,
            position,
            fmt=format,
            last=_game_ended,
            reconnect=reconnect,
            idle=idle,
        )
    except _RouteMissing:
        yield from poll_game(client, game_id, version[0], wait=wait, interval=poll_interval, idle=idle)


def _game_ended(line: Line) -> bool:
    status = line["game"].get("status") if line.get("type") == "game" else line.get("status")
    return status in ENDED


def poll_game(
    client: StreamClient,
    game_id: str,
    after: int | None = None,
    *,
    wait: float = 30.0,
    interval: float = 1.0,
    idle: Idle = None,
) -> Iterator[Line]:
    """The lines of the game stream, made by polling ``GET /games/{id}/events?after=N&wait=S`` (plain
    polling every ``interval`` seconds where the server does not take ``wait``)."""
    if after is None:
        game = client.game(game_id)
        yield {"type": "game", "version": game["version"], "game": game, "legal_moves": _legal(client, game)}
        if game["status"] in ENDED:
            return
        after = game["version"]
    long_poll = True
    while True:
        try:
            page = client.events(game_id, after, wait=wait if long_poll else None)
        except errors.BadRequest as refused:
            if long_poll and "wait" in refused.fields:
                long_poll = False
                continue
            raise
        if not page["events"]:
            if not long_poll:
                client.sleep(interval)
            _call(idle)
            continue
        line = _events_line(client, game_id, page["events"])
        after = line["version"]
        yield line
        if line["status"] in ENDED:
            return


def _events_line(client: StreamClient, game_id: str, events: list[Any]) -> Line:
    """An ``events`` line from events just read: the game and the legal moves are read after them, and
    the events completed up to the game's version, so that the line is of one version."""
    events = list(events)
    for _ in range(10):
        game = client.game(game_id)
        head = events[-1]["version"]
        if game["version"] > head:
            more = client.events(game_id, head, limit=game["version"] - head)["events"]
            events.extend(e for e in more if e["version"] <= game["version"])
            continue
        if game["version"] < head:  # the document lags behind the events for a moment
            client.sleep(0.05)
            continue
        legal = _legal(client, game)
        if legal is None or legal["version"] == game["version"]:
            break
    return {
        "type": "events",
        "version": events[-1]["version"],
        "events": events,
        "awaiting": game.get("awaiting", []),
        "status": game["status"],
        "legal_moves": legal,
        "clocks": game.get("clocks"),
    }


def _legal(client: StreamClient, game: Any) -> Any:
    """The caller's legal moves when one of its seats is awaited, else None (as the stream says)."""
    awaited = set(game.get("your_seats") or []) & set(game.get("awaiting") or [])
    if not client.token or not awaited or game["status"] != "active":
        return None
    return client.legal_moves(game["id"], min(awaited))


# ------------------------------------------------------------------ the account stream


def account_stream(
    client: StreamClient,
    after: int | None = None,
    *,
    format: str = "ndjson",
    poll_interval: float = 2.0,
    reconnect: Retry = RECONNECT,
    idle: Idle = None,
) -> Iterator[Line]:
    """The caller's account: an ``awaiting`` line per game that awaits it (again after each reconnection),
    then its account events in cursor order, for ever. On a server without the stream, ``/me/inbox`` is
    polled every ``poll_interval`` seconds instead, yielding ``awaiting``, ``reminder`` and ``invitation``
    lines once each."""

    def position(line: Line) -> int | None:
        cursor = line.get("cursor")
        return cursor if isinstance(cursor, int) else None

    try:
        yield from _follow(client, "/stream/events", after, position, fmt=format, reconnect=reconnect, idle=idle)
    except _RouteMissing:
        yield from poll_inbox(client, poll_interval, idle=idle)


def poll_inbox(client: StreamClient, interval: float = 2.0, *, idle: Idle = None) -> Iterator[Line]:
    """Account lines made by polling ``GET /me/inbox``: a game awaiting the caller once per version and
    seat, each reminder and invitation once."""
    awaited: set[tuple[str, int, int]] = set()
    shown: set[str] = set()
    while True:
        inbox = client.inbox()
        now = {(a["game_id"], a["seat"], a["version"]): a for a in inbox.get("awaiting", [])}
        for key, item in now.items():
            if key not in awaited:
                yield {**item, "type": "awaiting"}
        awaited = set(now)
        for kind, items in (("reminder", inbox.get("reminders", [])), ("invitation", inbox.get("invitations", []))):
            for entry in items:
                ident = str(entry.get("id") or json.dumps(entry, sort_keys=True))
                if ident not in shown:
                    shown.add(ident)
                    yield {**entry, "type": kind}
        client.sleep(interval)
        _call(idle)
