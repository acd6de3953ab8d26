"""Streams held by a fan-out engine (Pushpin, over GRIP), for deployments that want scale.

With ``DRAGONHALL_STREAM_ENGINE=pushpin`` the streams' clients connect through Pushpin. The API
answers a stream's request with its first lines (the game, or the catch-up from ``after``) and
GRIP headers that tell Pushpin to hold the connection open on a channel; from then on Pushpin
writes each line to its subscribers, and no process of ours holds the stream.

A channel holds exactly what its subscribers may see: one per seat holder of a game (and per
seat, for an account that holds several), one for the game's spectators, one per account; each
in the two framings (NDJSON, SSE). So a move publishes one line per viewer class, whatever the
number of streams: ``GripPublisher.saved``, called in the process that saved the move, builds
each line as ``services.streams.lines`` builds it for the process's own streams, and publishes them in
one batch (``Batches``: a thread of its own, off the move's path).

Nothing is lost or repeated between the catch-up and the channel (GRIP's reliable mode): every
line carries ``id`` (the version, or the account's cursor) and ``prev-id`` (the one before it), and
the hold names the position its catch-up ended at (``Grip-Channel: c; prev-id=N``). Pushpin writes a
line only when its ``prev-id`` is the last ``id`` the stream had, so a line a catch-up already gave
is never written again. When a line does not follow (a lost publish, or a line published before
the stream was held), and when a channel is newly subscribed, Pushpin asks the hold's ``Grip-Link``
(a signed link to ``/api/v1/streams/next``) for the lines after the last ``id`` it delivered, which
it names itself (``Grip-Last``: the reader's own position), and writes those instead; their hold
names the new position, and Pushpin drops what it queued meanwhile up to it.

The API answers a hold or a recovery only up to the game's *published mark*, the last version
whose publish was sent to Pushpin (``GripPublisher.published``): a line not yet on its way to
the channel would make the publish of it arrive behind the stream's position, and Pushpin would
ask again. A link names its stream's viewer, framing and token but no position: the streams of
one viewer class share one link, so Pushpin shares one request among those at the same
``Grip-Last`` (its sharing key is the link and ``Grip-Last``) and one of its rate-limited update
actions serves them all. The end of a game and the revocation of a token publish a ``close``.

Long polling holds the request (``Grip-Hold: response``) on a channel per game where a move
publishes a ``hint``: Pushpin then asks the same request again, which now finds the new events.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import threading
import uuid
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import httpx
import orjson
from gripcontrol import Channel, HttpStreamFormat, create_grip_channel_header, validate_sig
from pubcontrol import Format, Item

from services.accounts.account_feed import Appended
from services.common.visibility import has_ended
from services.play.aggregate import Game
from services.streams.lines import KEEPALIVE, Streams
from services.streams.published_marks import Marks
from services.streams.stream_frames import FRAMES, Frame, Line

log = logging.getLogger("dragonhall.streams.grip")

NEXT_PATH = "/api/v1/streams/next"
"""Where Pushpin asks for the lines it has missed (the hold's ``Grip-Link``)."""
RECOVER_AFTER = 30
"""Seconds of silence after which Pushpin asks the link anyway: a line lost with its publish
arrives then at the latest, and a revoked token is checked again."""


# ------------------------------------------------------------ channels


def game_channel(gid: str, viewer: str | None, seat: int | None, framing: str) -> str:
    """The channel of a game's lines for one viewer class: the spectators (``viewer`` None), or a
    seat holder's lines (``seat`` None: all its seats, as a caller who names none sees them)."""
    who = "watch" if viewer is None else f"{viewer}.{'all' if seat is None else seat}"
    return f"dh.g.{gid}.{who}.{framing}"


def account_channel(player_id: str, framing: str) -> str:
    return f"dh.a.{player_id}.{framing}"


def tokens_channel(player_id: str) -> str:
    """Closed when one of the account's tokens is revoked: every stream of the account ends, and a
    client whose token still holds resumes (``after``, ``Last-Event-ID``) where it was."""
    return f"dh.t.{player_id}"


def waits_channel(gid: str) -> str:
    """The long polls of a game: a move publishes a hint there."""
    return f"dh.w.{gid}"


def viewer_classes(game: Game) -> list[tuple[str | None, int | None]]:
    """(viewer, seat) of every line a change of ``game`` publishes: the spectators', each seat
    holder's, and each seat's of an account that holds several (one seat: the holder's line is it)."""
    classes: list[tuple[str | None, int | None]] = [(None, None)]
    for player_id in dict.fromkeys(s["player_id"] for s in game.seats if s.get("player_id")):
        classes.append((player_id, None))
        seats = game.seats_of(player_id)
        if len(seats) > 1:
            classes += [(player_id, seat) for seat in seats]
    return classes


def stream_seat(game: Game, player_id: str | None, seat: int | None) -> int | None:
    """The seat a stream follows on the engine: None for the one seat of a holder of one (its
    channel is the holder's), else as asked."""
    if player_id is None or seat is None:
        return seat
    return None if game.seats_of(player_id) == [seat] else seat


# ------------------------------------------------------------ the links Pushpin follows


@dataclass(frozen=True)
class Resume:
    """What a stream held by Pushpin follows, carried in its signed ``Grip-Link``: Pushpin asks it
    without the client's headers, so the link says whose stream it is."""

    kind: str  # "game" or "account"
    key: str  # the game's id, or the account's
    player_id: str | None
    """The caller (None: anonymous): whose token, and whose revocations end the stream."""
    viewer: str | None
    """Whose view a game's lines show: the caller when seated, else None (the spectators')."""
    seat: int | None
    framing: str
    token: str | None

    def channels(self) -> list[str]:
        data = (
            game_channel(self.key, self.viewer, self.seat, self.framing)
            if self.kind == "game"
            else account_channel(self.key, self.framing)
        )
        return [data] + ([tokens_channel(self.player_id)] if self.player_id else [])


class Links:
    """Signs and opens the ``Grip-Link`` of a hold (HMAC-SHA256 under the server's key)."""

    def __init__(self, secret: bytes) -> None:
        self._key = hashlib.sha256(b"dragonhall grip link\0" + secret).digest()

    def sign(self, resume: Resume) -> str:
        body = base64.urlsafe_b64encode(orjson.dumps(resume.__dict__)).rstrip(b"=")
        mac = base64.urlsafe_b64encode(hmac.digest(self._key, body, "sha256")).rstrip(b"=")
        return (body + b"." + mac).decode()

    def open(self, signed: str) -> Resume | None:
        body, _, mac = signed.encode().partition(b".")
        expected = base64.urlsafe_b64encode(hmac.digest(self._key, body, "sha256")).rstrip(b"=")
        if not hmac.compare_digest(mac, expected):
            return None
        try:
            fields = orjson.loads(base64.urlsafe_b64decode(body + b"=" * (-len(body) % 4)))
            return Resume(**fields)
        except (ValueError, TypeError):
            return None


def hold_headers(resume: Resume, links: Links, position: int) -> dict[str, str]:
    """The GRIP headers that hold a stream open after its catch-up, which ended at ``position``.
    The link is the same for every stream of the viewer class: the position comes back in
    ``Grip-Last``."""
    data, *others = resume.channels()
    channels = [Channel(data, prev_id=str(position))] + [Channel(c) for c in others]
    keep_alive = FRAMES[resume.framing](None).decode().encode("unicode_escape").decode()
    return {
        "Grip-Hold": "stream",
        "Grip-Channel": create_grip_channel_header(channels),
        "Grip-Keep-Alive": f"{keep_alive}; format=cstring; timeout={int(KEEPALIVE)}",
        "Grip-Link": f"<{NEXT_PATH}/{links.sign(resume)}>; rel=next; timeout={RECOVER_AFTER}",
    }


def last_position(grip_last: str, channel: str) -> int | None:
    """The last id Pushpin delivered on ``channel`` (``Grip-Last: c; last-id=N, ...``); None when
    it names none, or the line that ended the stream."""
    for part in grip_last.split(","):
        name, _, params = part.strip().partition(";")
        if name.strip() != channel:
            continue
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "last-id" and value.isdigit():
                return int(value)
    return None


def from_pushpin(grip_sig: str | None, key: str) -> bool:
    """Whether a request came through Pushpin: a ``Grip-Sig`` signed with its ``sig_key``, not expired."""
    return bool(grip_sig) and bool(key) and validate_sig(grip_sig, key.encode())


# ------------------------------------------------------------ publishing


class _Hint(Format):  # type: ignore[misc]
    """``http-response`` ``hint``: Pushpin asks the held long poll's request again."""

    def name(self) -> str:
        return "http-response"

    def export(self) -> dict[str, Any]:
        return {"action": "hint"}


MAX_BATCH = 1000
"""Items in one POST to Pushpin at most."""


class Batches:
    """Sends items to Pushpin's publish endpoint from one thread: each POST carries everything queued
    since the last one (``pubcontrol``'s own client sends ten at a time, one request each after the
    other: under a few hundred moves a second its queue grew by seconds). One thread keeps them in
    the order they were queued, which is the order of the saves of a game in this process."""

    def __init__(self, publish_url: str, marks: Marks | None = None) -> None:
        self.url = publish_url.rstrip("/") + "/publish/"
        self.failures = 0
        self.marks = marks
        self._queue: deque[tuple[list[dict[str, Any]], Sequence[tuple[uuid.UUID, int]]]] = deque()
        self._ready = threading.Condition()
        self._sending = 0
        self._closed = False
        self._thread: threading.Thread | None = None

    def put(self, items: list[dict[str, Any]], marks: Sequence[tuple[uuid.UUID, int]] = ()) -> None:
        """Queues ``items``, and the games' ``marks`` (game, version) to raise once they are sent."""
        with self._ready:
            if self._closed:
                return
            self._queue.append((items, marks))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="dragonhall-grip-publish", daemon=True)
                self._thread.start()
            self._ready.notify_all()

    def _run(self) -> None:
        with httpx.Client(timeout=10.0) as client:
            while True:
                with self._ready:
                    self._ready.wait_for(lambda: bool(self._queue) or self._closed)
                    if not self._queue:
                        return
                    batch: list[dict[str, Any]] = []
                    marks: list[tuple[uuid.UUID, int]] = []
                    while self._queue and (not batch or len(batch) + len(self._queue[0][0]) <= MAX_BATCH):
                        items, posted = self._queue.popleft()
                        batch += items
                        marks += posted
                    self._sending = len(batch) or 1
                try:
                    if batch:
                        sent = client.post(
                            self.url,
                            content=orjson.dumps({"items": batch}),
                            headers={"Content-Type": "application/json"},
                        )
                        sent.raise_for_status()
                except httpx.HTTPError as error:  # the streams recover from the API what was lost
                    self.failures += 1
                    log.warning("%d items were not published to the fan-out engine: %s", len(batch), error)
                if self.marks is not None:  # sent or lost, nothing of these versions is still on its way
                    for game_id, version in marks:
                        self.marks.raise_to(game_id, version)
                with self._ready:
                    self._sending = 0
                    self._ready.notify_all()

    def flush(self, timeout: float = 10.0) -> bool:
        """Waits until everything queued so far is sent (or ``timeout`` seconds); whether it was."""
        with self._ready:
            return self._ready.wait_for(lambda: not self._queue and not self._sending, timeout)

    def close(self) -> None:
        self.flush()
        with self._ready:
            self._closed = True
            self._ready.notify_all()
        if self._thread is not None:
            self._thread.join(10)


class GripPublisher:
    """Publishes each change of a game, and each account entry, once per viewer class."""

    def __init__(self, publish_url: str, streams: Streams, marks: Marks | None = None) -> None:
        self.batches = Batches(publish_url, marks)
        self.streams = streams
        self.marks = marks
        self._saving: dict[str, tuple[Game, int]] = {}

    @property
    def failures(self) -> int:
        return self.batches.failures

    def published(self, gid: str) -> int | None:
        """The game's published mark: the last version whose publish is no longer on its way to
        Pushpin (sent, or lost and left to the streams' recovery); None when not known here (the
        store has writers whose publishes this process does not see, or none was seen yet)."""
        return None if self.marks is None else self.marks.version(uuid.UUID(gid))

    def before_save(self, game: Game) -> None:
        """The version a save starts from (a ``before_save`` hook; saves of one game take turns)."""
        self._saving[str(game.id)] = (game, game.version - len(game.pending_events))

    def saved(self, gid: str) -> None:
        """Publishes the change just saved (an ``on_saved`` hook, in the saving process)."""
        held = self._saving.pop(gid, None)
        if held is None:
            return
        game, before = held
        try:
            self.publish_change(game, before)
        except Exception:  # a stream recovers what a failed publish lost; a move never fails for it
            self.batches.failures += 1
            log.exception("the change of game %s to version %s was not published", gid, game.version)
            self.batches.put([], [(game.id, game.version)])

    def publish_change(self, game: Game, before: int) -> None:
        gid, version = str(game.id), game.version
        ended = has_ended(game.status)
        items: list[dict[str, Any]] = []
        for viewer, seat in viewer_classes(game):
            line = self.streams.events_line(game, before, viewer, seat)
            for framing, frame in FRAMES.items():
                channel = game_channel(gid, viewer, seat, framing)
                items.append(_item(channel, _line_item(frame, line, version, before)))
                if ended:
                    closing = Item(HttpStreamFormat(close=True), f"{version}-end", str(version))
                    items.append(_item(channel, closing))
        items.append(_item(waits_channel(gid), Item(_Hint())))
        self.batches.put(items, [(game.id, version)])

    def accounts(self, appended: Iterable[Appended]) -> None:
        """Publishes account entries just recorded (an ``AccountFeed.publishers`` hook)."""
        items = []
        for entry in appended:
            cursor = int(entry.line["cursor"])
            for framing, frame in FRAMES.items():
                line = _line_item(frame, entry.line, cursor, entry.before)
                items.append(_item(account_channel(entry.player_id, framing), line))
        self.batches.put(items)

    def revoked(self, player_id: str) -> None:
        """Closes the account's streams (an ``Accounts.on_revoked`` hook)."""
        self.batches.put([_item(tokens_channel(player_id), Item(HttpStreamFormat(close=True)))])

    def flush(self) -> bool:
        """Waits until everything published so far is sent."""
        return self.batches.flush()

    def close(self) -> None:
        self.batches.close()


def _item(channel: str, item: Item) -> dict[str, Any]:
    exported: dict[str, Any] = item.export()
    exported["channel"] = channel
    return exported


def _line_item(frame: Frame, line: Line, position: int, before: int) -> Item:
    return Item(HttpStreamFormat(frame(line)), str(position), str(before))


def attach(publisher: GripPublisher, uow: Any, feed: Any, accounts: Any) -> None:
    """Hooks the publisher to the saves, the account feed and the revocations of this process."""
    uow.before_save.append(publisher.before_save)
    uow.on_saved.append(publisher.saved)
    feed.publishers.append(publisher.accounts)
    accounts.on_revoked.append(publisher.revoked)
