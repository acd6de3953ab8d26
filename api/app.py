"""The Flask application factory."""

from __future__ import annotations

import gc
import http
import itertools
import logging
import multiprocessing.util
import os
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from flask import Flask, Response, g, has_request_context, request
from flask_compress import Compress
from flask_smorest import Api
from flask_smorest.utils import prepare_response
from werkzeug.middleware.proxy_fix import ProxyFix

from api import (
    advice,
    audit,
    auth,
    competition,
    errors,
    games,
    grip_streams,
    invitations,
    json_bodies,
    keys,
    limits,
    meta,
    meta_schemas,
    move_docs,
    parser,
    players,
    schema_fields,
    sessions,
    streams,
)
from api.context import install, platform_of
from api.gateway import Gateway
from api.stream_hub import StreamHub
from api.web import site
from infra import connection_balance, log_lines, metrics
from infra.http_responses import DefaultHeaders, FastJSON, WholeBodyResponse
from wiring import Platform, bootstrap


def create_app(platform: Platform | None = None) -> Flask:
    """A Flask app over ``platform`` (bootstrapped from the environment when not given)."""
    platform = platform or bootstrap()
    app = Flask("dragonhall")
    parser.install_segments(app)  # first: every route below takes its segments without a NUL
    log_lines.context_source = request_context
    app.response_class = WholeBodyResponse
    app.json = FastJSON(app)
    app.config.update(
        API_TITLE="Dragonhall",
        API_VERSION="v1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api/v1",
        OPENAPI_JSON_PATH="openapi.json",
        JSON_SORT_KEYS=False,
        MAX_CONTENT_LENGTH=platform.settings.max_body_bytes,
    )
    app.json.sort_keys = False
    app.json.compact = True
    install(app, platform)
    api = ContractApi(app, spec_kwargs={"info": {"description": _DESCRIPTION}})
    api.spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    api.ma_plugin.converter.add_attribute_function(schema_fields.move_property)
    api.ma_plugin.converter.add_attribute_function(schema_fields.catalog_enum)
    api.ma_plugin.converter.add_attribute_function(schema_fields.built_property)
    move_docs.register(api)
    blueprints = (players.blp, sessions.blp, invitations.blp, games.blp, advice.blp, streams.blp, audit.blp,
                  meta.blp, keys.blp, competition.blp)  # fmt: skip
    for blp in blueprints:
        api.register_blueprint(blp)
    grip_streams.install(app)
    streams.install(app)
    app.add_url_rule("/healthz", "healthz", meta.health)
    app.add_url_rule("/readyz", "readyz", meta.ready)
    app.add_url_rule("/metrics", "metrics", meta.metrics)
    app.add_url_rule("/api/v1/docs", "docs", meta.docs_page)
    site.install(app)
    parser.refuse_unread_bodies(app)  # once every route is added
    parser.refuse_nul_in_forms(app)
    app.before_request(_start_clock)  # first: a request refused by the next ones is timed too
    app.before_request(parser.bound_unsized_body)
    app.before_request(parser.refuse_undeclared_query)
    app.before_request(auth.authenticate_request)
    errors.register_error_handlers(app, page=_error_page)
    app.after_request(_time_request)
    limits.install(app, platform.settings)  # after authenticate_request: its keys are the callers found there
    compress(app)
    if platform.accounts.saves_check_tokens:  # PostgreSQL's: a move's token answered from what was kept
        app.after_request(auth.confirm_caller)  # registered last, so run first: the others see its answer
        app.teardown_request(auth.forget_guard)
    if platform.settings.trusted_proxies:
        hops = platform.settings.trusted_proxies  # the client's address, scheme and host as the proxies saw them
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)  # type: ignore[method-assign]
    return app


def _error_page(status: int, code: str, message: str) -> Response | None:
    """An error as the web client's page where a person's browser asked for a page (``api.web``)."""
    return site.error_page(status, code, message) if site.is_page_request() else None


COMPRESSED_TYPES = ["application/json", "text/html", "image/svg+xml"]
"""Answers compressed when the client accepts it and they are over ``COMPRESS_MIN_SIZE``: a long
game's steps, a Mékong seat's 15,120 legal moves, a board and a page shrink five to twenty times.
Streams are never compressed (each line must leave at once), nor are the small answers of moves."""


COMPRESS_MIN_SIZE = 2048


def compress(app: Flask) -> None:
    """gzip or Brotli for the answers above, with flask-compress (run first of the after-request hooks).

    flask-compress's own hook looks through the answer's headers and the request's on every
    answer, a handful of misses each raising and catching an exception, before it finds that a
    move's small answer is not for it: so it is asked only of answers that could be compressed
    (a client that accepts gzip or Brotli, a body of at least ``COMPRESS_MIN_SIZE`` bytes, not a
    stream). Every answer still says ``Vary: Accept-Encoding``, as it did (``DefaultHeaders``)."""
    app.config.update(
        COMPRESS_MIMETYPES=COMPRESSED_TYPES,
        COMPRESS_MIN_SIZE=COMPRESS_MIN_SIZE,
        COMPRESS_STREAMS=False,
        COMPRESS_ALGORITHM=["br", "gzip"],
        COMPRESS_LEVEL=6,
        COMPRESS_BR_LEVEL=4,
        COMPRESS_REGISTER=False,
    )
    compressor = Compress(app)

    def compress_if_worth_it(response: Response) -> Response:
        accepted = request.environ.get("HTTP_ACCEPT_ENCODING", "")
        if ("br" not in accepted and "gzip" not in accepted) or response.is_streamed:
            return response
        length = response.content_length
        if length is not None and length < COMPRESS_MIN_SIZE:
            return response
        compressed: Response = compressor.after_request(response)
        return compressed

    app.after_request(compress_if_worth_it)
    app.wsgi_app = DefaultHeaders(app.wsgi_app, [("Vary", "Accept-Encoding")])  # type: ignore[method-assign]


def _start_clock() -> None:
    g.started = time.perf_counter()


def _time_request(response: Response) -> Response:
    """Observes the request's time by route (its URL rule: a few dozen values, not one per game),
    writes the access log's line when it is on (``DRAGONHALL_ACCESS_LOG``), and returns the
    request's id as ``X-Request-Id``: the id its log lines and the tasks it caused carry."""
    response.headers["X-Request-Id"] = request_id()
    started = g.get("started")
    if started is not None:
        route = request.url_rule.rule if request.url_rule is not None else "unmatched"
        seconds = time.perf_counter() - started
        metrics.REQUEST_SECONDS_BY(route, request.method).observe(seconds)
        if ACCESS.isEnabledFor(logging.INFO):
            fields = {"method": request.method, "path": request.path, "route": route, "status": response.status_code}
            ACCESS.info("%s %s %s", request.method, request.path, response.status_code,
                        extra={"fields": {**fields, "seconds": round(seconds, 6)}})  # fmt: skip
    return response


ACCESS = logging.getLogger("dragonhall.access")
"""One line per request answered, at INFO: off unless ``DRAGONHALL_ACCESS_LOG`` is set (``api.cli``)."""


_request_ids = itertools.count(1)


def request_id() -> str:
    """The request's id: the client's ``X-Request-Id`` (up to 64 printable characters), else one
    made here (``<pid>-<n>``, hexadecimal); the same for every line and task of the request."""
    rid: str | None = g.get("request_id")
    if rid is None:
        given = request.headers.get("X-Request-Id", "")
        rid = g.request_id = given[:64] if given.isprintable() and given else f"{os.getpid():x}-{next(_request_ids):x}"
    return rid


def request_context() -> dict[str, Any]:
    """The request id (the client's ``X-Request-Id``, else one made here), the game id and the
    account of the request being served: the fields of its log lines (``infra.log_lines``)."""
    if not has_request_context():
        return {}
    fields: dict[str, Any] = {"request_id": request_id()}
    game_id = (request.view_args or {}).get("game_id")
    if game_id:
        fields["game_id"] = game_id
    try:
        account = auth.caller_id()
    except RuntimeError:  # a page outside the API (its caller is not read)
        account = None
    if account:
        fields["account"] = account
    return fields


def serving_app() -> Flask:
    """The app of one server process: ``dragonhall serve`` builds one per process.

    Its platform is closed when the process exits, so the read models it runs
    write out their last boards. Granian's workers are ``multiprocessing``
    children, which run ``multiprocessing`` finalizers on exit, not ``atexit``.

    The objects made at start-up (modules, the app, its schemas) live as long as
    the process, so they are frozen out of the garbage collector's scans: a full
    collection had to walk them all, and stopped every request for about 45 ms.
    """
    app = create_app()
    # its lines go through the command's handler (``infra.log_lines``), at INFO only when asked for,
    # whatever DRAGONHALL_LOG_LEVEL says
    ACCESS.setLevel(logging.INFO if os.environ.get(log_lines.ACCESS_LOG) else logging.WARNING)
    multiprocessing.util.Finalize(app, platform_of(app).close, exitpriority=10)
    balancer = connection_balance.from_environment()
    if balancer is not None:
        balancer.attach(app)
        multiprocessing.util.Finalize(app, balancer.stop, exitpriority=20)
    gc.collect()
    gc.freeze()
    return app


def serving_gateway() -> Gateway:
    """The RSGI app of one server process (``api.gateway``): ``serving_app`` answers each request on
    one of ``DRAGONHALL_HTTP_THREADS`` worker threads, or with one on the event loop's own thread
    (a long poll on a pool of its own, as many as the streams a process may hold, since each
    waits on its thread), the streams' lines are read and built on as many more, and the streams
    wait on the event loop."""
    app = serving_app()
    platform = platform_of(app)
    threads = int(os.environ.get("DRAGONHALL_HTTP_THREADS") or 1)
    requests = None if threads == 1 else ThreadPoolExecutor(max_workers=threads, thread_name_prefix="dragonhall-http")
    waits = ThreadPoolExecutor(max_workers=platform.settings.max_streams, thread_name_prefix="dragonhall-wait")
    lines = None if threads == 1 else ThreadPoolExecutor(max_workers=threads, thread_name_prefix="dragonhall-lines")
    return Gateway(app, StreamHub(platform.streams, lines), requests, waits)


class ContractApi(Api):
    """flask-smorest's Api, documenting the error body this API writes (``api.errors``)
    rather than flask-smorest's own, for every error response.

    No operation has a catch-all ``default`` response: each lists the codes it answers
    (``ContractBlueprint.contract``), so a client, and a fuzzer, can tell an undocumented one."""

    ERROR_SCHEMA = meta_schemas.Error
    DEFAULT_ERROR_RESPONSE_NAME = None

    def _register_responses(self) -> None:
        """One response component per status (``BAD_REQUEST``...), each with the error body and
        what this API means by it."""
        meanings = error_meanings(self._app.config["MAX_CONTENT_LENGTH"])
        for status in http.HTTPStatus:
            response: dict[str, Any] = {"description": meanings.get(status, status.phrase)}
            if status >= 400:
                response["schema"] = self.ERROR_SCHEMA
            if status in (429, 503):
                response["headers"] = {
                    "Retry-After": {
                        "description": "Seconds to wait before trying again.",
                        "schema": {"type": "integer"},
                    }
                }
            prepare_response(response, self.spec, self.DEFAULT_RESPONSE_CONTENT_TYPE)
            self.spec.components.response(status.name, response, lazy=True)


def error_meanings(max_body_bytes: int) -> dict[int, str]:
    """What each error status means in this API, for the OpenAPI document."""
    return {
        400: (
            f"Malformed JSON, a body that does not match its schema, a query parameter the operation does not "
            f"take (or one given twice), or a value over a documented limit; `fields` names each one. A body "
            f"is refused if it nests more than {json_bodies.MAX_JSON_DEPTH} levels, holds a string with a lone "
            f"surrogate, an integer outside 64 bits or of more than {json_bodies.MAX_INT_DIGITS} digits, NaN or "
            f"Infinity."
        ),
        401: "A missing or invalid bearer token (an invalid token is refused even where a token is optional).",
        403: (
            "The token lacks the scope the operation needs (code insufficient_scope, with `scope`: see the "
            "operation's x-scope), or the caller holds no seat in the game (or not the seat named), or is not "
            "the one allowed to do this."
        ),
        404: "No such game, dispute, board picture, or token of yours.",
        409: (
            "The game's state does not allow it now: a stale expected_version, a game not accepting the "
            "command, a seat not free, a command_id reused for another move, or a record asked of a running "
            "game."
        ),
        413: f"The request body is over {max_body_bytes} bytes (DRAGONHALL_MAX_BODY_BYTES); it was not read.",
        422: "The rules refuse the move; `rule` cites the rulebook.",
        429: (
            "A rate limit is reached (code rate_limited): registrations per address, moves and reads per "
            "token, streams opened per account; or the caller holds as many streams and long polls as one "
            "caller may (code too_many_streams_per_caller, DRAGONHALL_MAX_STREAMS_PER_CALLER). Nothing was "
            "done; try again after Retry-After seconds."
        ),
        503: (
            "The store cannot be reached for now: try again after Retry-After seconds (a move retried with the "
            "same command_id is not applied twice)."
        ),
    }


_DESCRIPTION = (
    "An event-sourced server for four dragon board games. Every move is an immutable event; "
    "read models are rebuilt from the events. Authenticate with a bearer token from POST /api/v1/players; "
    "each operation names the token scope it needs in x-scope (read, play or account; a bot token holds "
    "read and play)."
)
