"""No read reveals what the reader may not know: the no-leak property over every endpoint.

For every game and variant with hidden information, for each seat, a spectator and
an anonymous caller, hypothesis builds twin games (``tests.support.twins``): the
same public history, everything hidden from the viewer drawn anew. Both are played
on through the HTTP API, the same public decisions in each, with refused commands,
disputes and timeouts mixed in, by every seat. After each action every read the
API offers about a game is called as the viewer on both twins, and the answers
must be byte for byte the same once ids are renamed. So must the viewer's own
commands' answers, refusals included.

The reads are found from the app's routes: a new endpoint that reads a game fails
``test_every_read_of_a_game_is_checked`` until it is added to ``READS`` here, and
so comes under the property.
"""

from __future__ import annotations

import json
import random
import re
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import services.streams.lines
from api.app import create_app
from domain.kernel import Codec, Rng, Viewer, all_games
from services.common import clock
from services.common.ports import NullWork
from tests.conftest import make_settings
from tests.support.api_client import ApiClient, Reply
from tests.support.runs import count
from tests.support.twins import Twins, World, fork, matching_move, resampled
from wiring import bootstrap
from workers import jobs

GAMES = all_games()  # Dice Race included (tests.conftest registers it)
CASES = [pytest.param(g, v.name, id=f"{g.slug}-{v.name}") for g in GAMES for v in g.variants]
STEPS = 10
WARM_UP = 12
"""Random decisions played before the twins part, so that hands, piles and boards are under way."""

READS: dict[str, str] = {
    "/api/v1/games/<game_id>": "{game}",
    "/api/v1/games/<game_id>/events": "{game}/events?after=0",
    "/api/v1/games/<game_id>/steps": "{game}/steps",
    "/api/v1/games/<game_id>/audit": "{game}/audit",
    "/api/v1/games/<game_id>/journal": "{game}/journal",
    "/api/v1/games/<game_id>/disputes": "{game}/disputes",
    "/api/v1/games/<game_id>/legal-moves": "{game}/legal-moves?limit=1000&words=true",
    "/api/v1/games/<game_id>/log": "{game}/log",
    "/api/v1/games/<game_id>/advice": "{game}/advice?seed=7",
    "/api/v1/games/<game_id>/board.svg": "{game}/board.svg",
    "/api/v1/games/<game_id>/record": "{game}/record",
    "/api/v1/games/<game_id>/replay": "{game}/replay?at={version}",
    "/api/v1/disputes/<dispute_id>": "/api/v1/disputes/{dispute}",
    "/api/v1/disputes/<dispute_id>/legal-moves": "/api/v1/disputes/{dispute}/legal-moves",
    "/api/v1/games": "/api/v1/games?player={player}",
    "/api/v1/me/inbox": "/api/v1/me/inbox",
    "/api/v1/games/<game_id>/stream": "{game}/stream",
    "/api/v1/stream/events": "/api/v1/stream/events?after=0",
}
"""Every GET about a game, as the property calls it (``{game}`` is ``/api/v1/games/<id>``)."""
PAGES: dict[str, str] = {
    "/games/<game_id>": "/games/{id}",
    "/games/<game_id>/replay": "/games/{id}/replay",
    "/games/<game_id>/audit": "/games/{id}/audit?dispute=1",
    "/games/<game_id>/steps/<int:step>/choices": "/games/{id}/steps/{step}/choices",
    "/inbox": "/inbox",
}
"""The web client's pages about a game, read with the viewer's session cookie (``api.web``): the
board, the seats, the words of its steps, the journal, the disputes (with the form open on step 1)
as a person sees them, and the moves a step's dispute may name (for steps 1 to ``STEPS_CHOSEN``)."""
STEPS_CHOSEN = 3
CSRF = re.compile(r'(name="csrf-token" content="|name="csrf" value=")[0-9a-f]+"')
"""A page's CSRF token is derived from its session's token, which differs between the twins."""
STREAMS = {"/api/v1/games/<game_id>/stream", "/api/v1/stream/events"}
"""Reads whose answer is a stream: its lines up to the first keep-alive are compared (the fixture sets
the keep-alive to come at once when nothing is left to send), the game's opened from the start and
from version 0; the account's without cursors and times, which count every account's events."""
ACTIONS = {
    "/api/v1/games/<game_id>/moves": "moves of every seat, refused ones included",
    "/api/v1/games/<game_id>/disputes": "disputes opened by every seat",
}
OTHER_ROUTES = {
    "/api/v1/catalog",
    "/rules/<game>",  # a game's rules: the same for every reader, of no table
    "/api/v1/docs",
    "/api/v1/openapi.json",
    "/healthz",
    "/readyz",  # whether this process's store answers: nothing of any game
    "/metrics",
    "/static/<path:filename>",
    "/assets/<path:filename>",
    "/favicon.ico",
    "/",
    "/signin",
    "/signup",
    "/signout",
    "/games",
    "/games/<game_id>/join",
    "/games/<game_id>/bots",
    "/games/<game_id>/start",
    "/games/<game_id>/close",  # a table not started: nothing hidden exists yet, its answer is its document
    "/games/<game_id>/leave",  # the same
    "/games/<game_id>/disputes",
    "/api/v1/me",
    "/api/v1/me/vacation",
    "/api/v1/me/webhook",
    "/api/v1/me/tokens",
    "/api/v1/me/tokens/<token_id>",
    "/api/v1/players",
    "/api/v1/games/<game_id>/seats",
    "/api/v1/games/<game_id>/start",
    "/api/v1/games/<game_id>/close",
    "/api/v1/games/<game_id>/leave",
    "/api/v1/games/<game_id>/resign",
    "/api/v1/disputes/<dispute_id>/resolve",
    "/api/v1/disputes/<dispute_id>/sandbox",
    "/api/v1/keys",
    "/api/v1/me/bots",
    "/api/v1/players/<player_id>",
    "/api/v1/players/<player_id>/ratings/<game>",
    "/api/v1/leaderboards/<game>",
    "/api/v1/tournaments",
    "/api/v1/tournaments/<tournament_id>",
    "/api/v1/tournaments/<tournament_id>/registrations",
    "/players/<player_id>",  # the profile page: GET /api/v1/players/{id}'s ended games and ratings
    "/leaderboards",  # the list of games, nothing of any game played
    "/leaderboards/<game>",  # GET /api/v1/leaderboards/{game}: ratings of ended games
    "/tournaments",  # the list (GET /api/v1/tournaments) and the form that announces one
    "/tournaments/<tournament_id>",  # GET /api/v1/tournaments/{id}: tables seated, places of ended games
    "/tournaments/<tournament_id>/register",  # acts before the tournament's games exist, as the API's does
    "/tournaments/<tournament_id>/withdraw",  # before the start only: no game of it exists yet
    "/tournaments/<tournament_id>/start",  # the organiser pairs round 1: tables as the list shows them
    "/tournaments/<tournament_id>/cancel",
    "/api/v1/tournaments/<tournament_id>/registrations/<player_id>",
    "/api/v1/tournaments/<tournament_id>/start",
    "/api/v1/tournaments/<tournament_id>/cancel",
    # accounts: names, passwords and recovery codes hold nothing of any game
    "/api/v1/sessions",
    "/api/v1/sessions/recovery",
    "/api/v1/me/password",
    "/api/v1/me/recovery-codes",
    "/recover",
    "/account/password",
    "/account/recovery-codes",
    "/account/bots",
    # invitations: a table's settings as it was opened (game, variant, options, seats, clock, rated,
    # start), which the game list shows anyone, and the answers; nothing of a running game's play
    # (tests/e2e/test_invitations.py holds an invitation to exactly these facts). The account
    # stream's invitation lines are under the property with the stream (READS).
    "/api/v1/me/invitations",
    "/api/v1/invitations/<invitation_id>",
    "/api/v1/invitations/<invitation_id>/accept",
    "/api/v1/invitations/<invitation_id>/decline",
    "/api/v1/games/<game_id>/invitations",  # a table not started: its seats and invitees, as above
    "/games/<game_id>/invite",
    "/invitations/<invitation_id>/accept",
    "/invitations/<invitation_id>/decline",
    "/api/v1/play-now",  # seats the caller as POST /games/{id}/seats does, before the game starts
    "/play-now",
}
"""Routes that read nothing of a running game, or act only before it starts, when it ends, or once
it has ended (a sandbox is refused while the game runs: tested in test_audit_api). Profiles, rating
histories and leaderboards read only ended games (``dh_results``, ``dh_ratings``: written when a game
ends); a tournament shows who sits at which table, as the game list does, and places once a game ends.
The web lobby (``/``) lists games as ``GET /api/v1/games`` does; the web forms act through the same
services as the API's routes (a dispute's form opens it as ``POST .../disputes`` does, checked there)."""


@pytest.fixture(scope="module")
def client() -> Iterator[ApiClient]:
    # the thorough run registers a few thousand players from one address within minutes
    platform = bootstrap(make_settings("memory", rate_limit_register="100000/minute"), work=NullWork())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(services.streams.lines, "KEEPALIVE", 0.0)
        yield ApiClient(create_app(platform).test_client(), platform)
    platform.close()


def test_every_read_of_a_game_is_checked(client: ApiClient) -> None:
    """A new endpoint must join the property (``READS``) or say why it reads nothing secret."""
    app = client.http.application
    routes = {r.rule for r in app.url_map.iter_rules()}
    unchecked = routes - set(READS) - set(PAGES) - set(ACTIONS) - OTHER_ROUTES
    assert not unchecked, f"routes outside the no-leak property: {sorted(unchecked)}"


@pytest.mark.parametrize(("ruleset", "variant"), CASES)
@settings(
    max_examples=count(2, 4),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**32 - 1), who=st.integers(0, 3), timed=st.booleans())
def test_no_read_reveals_what_the_reader_may_not_know(
    client: ApiClient, ruleset: Any, variant: str, seed: int, who: int, timed: bool
) -> None:
    _run(client, ruleset, variant, seed, who, timed)


@pytest.mark.thorough
@pytest.mark.parametrize(("ruleset", "variant"), CASES)
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32 - 1), who=st.integers(0, 7), timed=st.booleans())
def test_no_read_reveals_what_the_reader_may_not_know_over_many_games(
    client: ApiClient, ruleset: Any, variant: str, seed: int, who: int, timed: bool
) -> None:
    _run(client, ruleset, variant, seed, who, timed)


def _run(client: ApiClient, ruleset: Any, variant: str, seed: int, who: int, timed: bool) -> None:
    rng = random.Random(seed)
    v = ruleset.variant(variant)
    seats = rng.randint(v.min_seats, min(v.max_seats, 4))
    kinds: list[int | str] = [*range(seats), "spectator", "anonymous"]
    kind = kinds[who % len(kinds)]
    previous = clock.use(clock.FakeClock())
    try:
        twins = _twins(client, ruleset, variant, seats, kind, rng, timed)
        if twins is None:
            return
        for step in range(STEPS):
            if not _act(twins, rng, step):
                break
            _compare_reads(twins)
    finally:
        clock.use(previous)


# ---------------------------------------------------------------- building the twins


def _twins(
    client: ApiClient, ruleset: Any, variant: str, seats: int, kind: int | str, rng: random.Random, timed: bool
) -> Twins | None:
    state = _warm_up(ruleset, variant, seats, rng)
    if state is None:
        return None
    viewer = Viewer.of(kind) if isinstance(kind, int) else Viewer.spectator()
    twin = resampled(ruleset, state, viewer, seats, rng)
    spectator = client.player() if kind == "spectator" else None
    tc = (
        {"kind": "per_move", "seconds": 3600, "timeout_policy": rng.choice(["auto", "skip", "forfeit"])}
        if timed
        else {"kind": "none"}
    )
    seed = rng.randbytes(32)
    worlds = []
    for position in (state, twin):
        players = [client.player(f"p{i}{uuid.uuid4().hex[:6]}") for i in range(seats)]
        game_id = uuid.uuid4()
        _same_seed(client.platform, game_id, seed)
        worlds.append(World(fork(client.platform, game_id, ruleset.slug, variant, position, players, tc), players))
    a, b = worlds
    twins = Twins(client, ruleset, viewer, a, b, spectator, seed)
    twins.renames[b.game_id] = a.game_id
    twins.renames[str(b.game_id)[:8]] = str(a.game_id)[:8]  # the pages name a game by its id's head
    for pa, pb in zip(a.players, b.players, strict=True):
        twins.renames[pb["id"]] = pa["id"]
        twins.renames[pb["name"]] = pa["name"]  # names are unique: the twins' players are named apart
    _compare_reads(twins)
    return twins


def _same_seed(platform: Any, game_id: uuid.UUID, seed: bytes) -> None:
    """``game_id`` draws its chance from ``seed``: both twins draw the same rolls and shuffles."""
    seeds = platform.seeds
    table = getattr(seeds.of, "twins", None)
    if table is None:
        original = seeds.of
        table = {}

        def seeded(gid: Any) -> bytes:
            return table.get(str(gid)) or original(gid)

        seeded.twins = table  # type: ignore[attr-defined]
        seeds.of = seeded  # type: ignore[method-assign]
    table[str(game_id)] = seed


def _warm_up(ruleset: Any, variant: str, seats: int, rng: random.Random) -> Any:
    state, _ = ruleset.new_game(ruleset.configure(variant, None, seats), Rng(rng.randbytes(16), "setup"))
    for decision in range(rng.randint(0, WARM_UP)):
        seat = rng.choice(ruleset.awaiting(state))
        moves = list(ruleset.legal_moves(state, seat))
        rng.shuffle(moves)
        for move in moves[:20]:
            after = ruleset.fold(state, ruleset.decide(state, seat, move, Rng(b"warm", f"{decision}")))
            if not ruleset.is_over(after):
                state = after
                break
        else:
            return None
    return None if ruleset.is_over(state) else state


# ---------------------------------------------------------------- acting on both twins


def _act(twins: Twins, rng: random.Random, step: int) -> bool:
    """Actions on both twins, then a decision; False once their public histories part or a game ends."""
    clock._clock.advance(1.5)  # type: ignore[attr-defined]
    for _ in range(rng.randint(0, 2)):
        _refused(twins, rng)
        clock._clock.advance(0.25)  # type: ignore[attr-defined]
    if rng.random() < 0.25:
        _dispute(twins, rng)
    if rng.random() < 0.3 and (timed_out := _timeout(twins)) is not False:
        return bool(timed_out) and _running(twins)
    if not _running(twins):
        return False
    return _move(twins, rng, step) and _running(twins)


def _running(twins: Twins) -> bool:
    games = twins.platform.games
    return all(games.load(w.game_id).status == "active" for w in (twins.a, twins.b))


def _move(twins: Twins, rng: random.Random, step: int) -> bool:
    ruleset, games = twins.ruleset, twins.platform.games
    game_a, game_b = games.load(twins.a.game_id), games.load(twins.b.game_id)
    seat = rng.choice(game_a.awaiting)
    moves = list(ruleset.legal_moves(game_a.state, seat))
    rng.shuffle(moves)
    rng_of = lambda: Rng(twins.seed, f"v{game_a.version}")  # noqa: E731
    for move in moves[:10]:
        if ruleset.is_over(ruleset.fold(game_a.state, ruleset.decide(game_a.state, seat, move, rng_of()))):
            continue  # once over, all is revealed and the twins may differ
        other = matching_move(ruleset, game_a.state, game_b.state, seat, move, twins.viewer, rng_of, rng)
        if other is None:
            return False  # the public histories part here
        answers = [_post_move(twins, w, seat, m, f"c{step}") for w, m in ((twins.a, move), (twins.b, other))]
        assert [a.status for a in answers] == [201, 201], answers
        if seat == twins.viewer.seat:
            _same(twins, "POST moves", *answers)
        return True
    return False


def _post_move(twins: Twins, world: World, seat: int, move: Any, command_id: str) -> Any:
    body = {"move": Codec.dump(move), "command_id": command_id, "seat": seat, "include_legal_moves": True}
    return twins.client.call("POST", f"/api/v1/games/{world.game_id}/moves", body, world.token(seat))


def _refused(twins: Twins, rng: random.Random) -> None:
    """A command that the rules refuse, sent by any seat. What a seat tries is its own secret (a card
    it holds, a cell it hopes connects): another seat's command is drawn in each twin from what that
    seat could try there, the viewer's own is the same in both and must be judged the same."""
    ruleset, games = twins.ruleset, twins.platform.games
    game_a, game_b = games.load(twins.a.game_id), games.load(twins.b.game_id)
    seat = rng.randrange(len(game_a.seats))
    mine = seat == twins.viewer.seat
    commands = []
    for game in (game_a, game_b):
        if mine and commands:
            commands.append(commands[0])
            continue
        command = _refused_command(ruleset, game, seat, twins.seed, rng)
        if command is None:
            return
        commands.append(command)
    if mine:
        assert _refuses(ruleset, game_b.state, seat, commands[0], Rng(twins.seed, f"v{game_b.version}")), (
            f"the viewer's own command {commands[0]} is refused in one twin and not the other"
        )
    answers = [
        twins.client.call("POST", f"/api/v1/games/{w.game_id}/moves", {"move": c, "seat": seat}, w.token(seat))
        for w, c in ((twins.a, commands[0]), (twins.b, commands[1]))
    ]
    assert all(a.status in (400, 403, 409, 422) for a in answers), answers
    if mine:
        _same(twins, "refused POST moves", *answers)


def _refused_command(ruleset: Any, game: Any, seat: int, seed: bytes, rng: random.Random) -> Any:
    """A command ``seat`` could send in ``game`` that its rules refuse: one of its own legal moves
    or another seat's, with a field changed or tried out of place; None when none is found."""
    pool = [
        Codec.dump(m)
        for other in [seat, *range(len(game.seats))]
        for m in list(ruleset.legal_moves(game.state, other))[:200]
    ]
    for _ in range(8 if pool else 0):
        command = _mutated(rng.choice(pool), pool, rng)
        if _refuses(ruleset, game.state, seat, command, Rng(seed, f"v{game.version}")):
            return command
    return None


def _mutated(move: dict[str, Any], pool: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """``move``, or ``move`` with one field changed: to another move's value for that field, or an
    integer nudged; now and then with a field no command has."""
    roll = rng.random()
    fields = [k for k in move if k != "type"]
    if roll < 0.1:
        return {**move, "unknown_field": 1}
    if roll < 0.4 or not fields:
        return move
    name = rng.choice(fields)
    value = move[name]
    if isinstance(value, int) and not isinstance(value, bool) and rng.random() < 0.5:
        return {**move, name: value + rng.choice((-2, -1, 1, 2))}
    others = [m[name] for m in pool if m.get("type") == move["type"] and name in m]
    return {**move, name: rng.choice(others)} if others else move


def _refuses(ruleset: Any, state: Any, seat: int, json_move: Any, rng: Rng) -> bool:
    from domain.kernel import RuleError

    try:
        ruleset.decide(state, seat, ruleset.parse_move(json_move), rng)
    except RuleError:
        return True
    return False


def _dispute(twins: Twins, rng: random.Random) -> None:
    """A dispute by any seat about a past version, claiming a move: mostly one the seat could make
    there (what it would cause is what a dispute must not tell while the game runs)."""
    games = twins.platform.games
    game_a = games.load(twins.a.game_id)
    seats = len(game_a.seats)
    seat = twins.viewer.seat if twins.viewer.seat is not None and rng.random() < 0.5 else rng.randrange(seats)
    version = rng.randint(1, game_a.version)
    past = games.load_at(twins.a.game_id, version)
    mine = [] if past.state is None else list(twins.ruleset.legal_moves(past.state, seat))
    others = (
        []
        if past.state is None
        else [m for s in range(seats) for m in list(twins.ruleset.legal_moves(past.state, s))[:20]]
    )
    body: dict[str, Any] = {"version": version, "claim": "this was legal", "seat": seat}
    if mine or others:
        body["move"] = Codec.dump(rng.choice(mine if mine and rng.random() < 0.8 else others or mine))
    answers = [
        twins.client.call("POST", f"/api/v1/games/{w.game_id}/disputes", body, w.token(seat))
        for w in (twins.a, twins.b)
    ]
    assert answers[0].status == answers[1].status, answers
    if answers[0].status == 201:
        twins.renames[answers[1].body["id"]] = answers[0].body["id"]
    if seat == twins.viewer.seat:
        _same(twins, "POST disputes", *answers)


def _timeout(twins: Twins) -> bool | None:
    """The viewer's turn times out in both twins; the stand-in bot decides on the viewer's
    observation, so it plays the same in both. None when what follows reveals what differs
    between the twins (the public histories part); False when no timeout is due."""
    seat = twins.viewer.seat
    games = twins.platform.games
    game_a = games.load(twins.a.game_id)
    if seat is None or game_a.time_control.get("kind") == "none" or seat not in game_a.awaiting:
        return False
    clock._clock.advance(3601)  # type: ignore[attr-defined]
    for w in (twins.a, twins.b):
        game = games.load(w.game_id)
        assert jobs.deadline(twins.platform, lambda _actions: None, w.game_id, seat, game.version) == "fired"
    traces = [_public_since(twins, w, game_a.version) for w in (twins.a, twins.b)]
    return True if traces[0] == traces[1] else None


def _public_since(twins: Twins, world: World, version: int) -> Any:
    """What the viewer may learn from the rule events after ``version`` and the board now, by the
    game's own visibility declarations: the oracle the server's answers are held to."""
    ruleset, games = twins.ruleset, twins.platform.games
    seen = [
        (e.KIND, ruleset.load_event(e.KIND, e.data).visible_data(twins.viewer), e.awaiting)
        for e in games.stored_events(world.game_id, after=version)
        if hasattr(e, "KIND")
    ]
    game = games.load(world.game_id)
    return json.loads(json.dumps([seen, ruleset.view(game.state, twins.viewer), game.status], default=str))


# ---------------------------------------------------------------- comparing


def _compare_reads(twins: Twins) -> None:
    twins.platform.wait_for_projections()
    games = twins.platform.games
    version = games.load(twins.a.game_id).version
    _compare_history(twins, version)
    disputes = [
        d["id"]
        for d in twins.client.call(
            "GET", f"/api/v1/games/{twins.a.game_id}/disputes", token=twins.token(twins.a)
        ).body.get("disputes", [])
    ]
    for rule, pattern in READS.items():
        if rule == "/api/v1/games/<game_id>/replay":
            continue  # every version, in _compare_history
        if rule in STREAMS:
            _stream_both(twins, pattern, version)
            continue
        if "{dispute}" in pattern:
            for did in disputes:
                theirs = next(k for k, v in twins.renames.items() if v == did)
                _read_both(twins, pattern.format(dispute=did), pattern.format(dispute=theirs))
            continue
        _read_both(twins, *(_url(twins, w, pattern, version) for w in (twins.a, twins.b)))
    _read_narrowed(twins, version)
    for pattern in PAGES.values():
        for step in range(1, STEPS_CHOSEN + 1) if "{step}" in pattern else (0,):
            urls = [pattern.format(id=w.game_id, step=step) for w in (twins.a, twins.b)]
            pages = [twins.client.page(url, twins.token(w)) for url, w in zip(urls, (twins.a, twins.b), strict=True)]
            _same(twins, urls[0], *(Reply(p.status, CSRF.sub(r"\1-", p.body)) for p in pages))


def _compare_history(twins: Twins, version: int) -> None:
    """Each version once, as it appears: the replay and the board at it (while the game runs, a
    past version reads the same at every later one)."""
    for at in range(twins.history + 1, version + 1):
        for pattern in ("{game}/replay?at={version}", "{game}/board.svg?at={version}"):
            _read_both(twins, *(_url(twins, w, pattern, at) for w in (twins.a, twins.b)))
    twins.history = version


def _url(twins: Twins, world: World, pattern: str, version: int) -> str:
    seat = twins.viewer.seat
    player = world.players[0 if seat is None else seat]["id"]
    return pattern.format(game=f"/api/v1/games/{world.game_id}", version=version, player=player)


def _stream_both(twins: Twins, pattern: str, version: int) -> None:
    for variant in (pattern, f"{pattern}?after=0") if "?" not in pattern else (pattern,):
        answers = []
        for world in (twins.a, twins.b):
            status, frames = twins.client.stream_until_quiet(_url(twins, world, variant, version), twins.token(world))
            if status != 200:
                answers.append(Reply(status, [f.decode() for f in frames]))
                continue
            lines = [json.loads(f) for f in frames]
            for line in lines:
                if line.get("type") not in ("game", "events"):  # an account line
                    line.pop("cursor", None)
                    line.pop("at", None)
            answers.append(Reply(status, lines))
        _same(twins, _url(twins, twins.a, variant, version), *answers)


def _read_both(twins: Twins, url_a: str, url_b: str) -> Reply:
    answers = [twins.client.call("GET", url, token=twins.token(w)) for url, w in ((url_a, twins.a), (url_b, twins.b))]
    _same(twins, url_a, *answers)
    return answers[0]


NARROWED = "{game}/legal-moves?words=true&narrow=true&chosen="
"""The legal moves chosen step by step on the board: the first step, and the one after the first
ref it offers (a Mékong programme's first card)."""


def _read_narrowed(twins: Twins, version: int) -> None:
    first = _read_both(twins, *(_url(twins, w, NARROWED, version) for w in (twins.a, twins.b)))
    following = first.body.get("next") if isinstance(first.body, dict) else None
    if following:
        pattern = NARROWED + quote(following[0]["ref"])
        _read_both(twins, *(_url(twins, w, pattern, version) for w in (twins.a, twins.b)))


def _same(twins: Twins, what: str, mine: Any, theirs: Any) -> None:
    a = f"{mine.status} {_text(mine.body)}"
    b = twins.normalized(f"{theirs.status} {_text(theirs.body)}")
    if a != b:
        at = next(i for i, (x, y) in enumerate(zip(a + "\0", b + "\0", strict=False)) if x != y)
        around = slice(max(0, at - 600), at + 300)
        pytest.fail(
            f"{what} differs for {twins.viewer} when what it cannot see is resampled:\n{a[around]}\n---\n{b[around]}"
        )


def _text(body: Any) -> str:
    return body if isinstance(body, str) else json.dumps(body, sort_keys=True)
