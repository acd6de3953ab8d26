"""The Flask application factory."""

from __future__ import annotations

import gc
import multiprocessing.util
from typing import Any

import orjson
from flask import Flask, Response
from flask.json.provider import DefaultJSONProvider
from flask_smorest import Api

from api import audit, connection_balance, errors, games, keys, meta, players, schemas
from services.bootstrap import Platform, bootstrap


def create_app(platform: Platform | None = None) -> Flask:
    """A Flask app over ``platform`` (bootstrapped from the environment when not given)."""
    platform = platform or bootstrap()
    app = Flask("dragonhall")
    app.response_class = WholeBodyResponse
    app.json = FastJSON(app)
    app.config.update(
        API_TITLE="Dragonhall",
        API_VERSION="v1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/api/v1",
        OPENAPI_JSON_PATH="openapi.json",
        JSON_SORT_KEYS=False,
    )
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.json.compact = True  # type: ignore[attr-defined]
    app.extensions["dragonhall"] = platform
    api = ContractApi(app, spec_kwargs={"info": {"description": _DESCRIPTION}})
    api.spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    for blp in (players.blp, games.blp, audit.blp, meta.blp, keys.blp):
        api.register_blueprint(blp)
    app.add_url_rule("/healthz", "healthz", meta.health)
    app.add_url_rule("/api/v1/docs", "docs", meta.docs_page)
    errors.register_error_handlers(app)
    return app


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
    multiprocessing.util.Finalize(app, app.extensions["dragonhall"].close, exitpriority=10)
    balancer = connection_balance.from_environment()
    if balancer is not None:
        balancer.attach(app)
        multiprocessing.util.Finalize(app, balancer.stop, exitpriority=20)
    gc.collect()
    gc.freeze()
    return app


class ContractApi(Api):
    """flask-smorest's Api, documenting the error body this API writes (``api.errors``)
    rather than flask-smorest's own, for every error response."""

    ERROR_SCHEMA = schemas.Error


class WholeBodyResponse(Response):
    """A response that hands the WSGI server its body as one bytes object in a list.

    Werkzeug returns every body as an iterator, even one held whole in memory.
    Granian sends an iterator through a channel, a chunk at a time, releasing and
    retaking the GIL for each; a list it writes in one call. The response is closed
    here (running its ``call_on_close`` hooks), since nobody closes a list."""

    def get_app_iter(self, environ: Any) -> Any:
        app_iter = super().get_app_iter(environ)
        if not self.is_sequence:
            return app_iter
        try:
            return [b"".join(app_iter)]
        finally:
            if hasattr(app_iter, "close"):
                app_iter.close()


class FastJSON(DefaultJSONProvider):
    """Flask's JSON, with response bodies written by ``orjson`` (several times faster).
    Values that are not plain JSON (datetimes, dataclasses, subclasses of str or int)
    still go through Flask's own ``default``, so every body reads as before."""

    _OPTIONS = (orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
                | orjson.OPT_PASSTHROUGH_SUBCLASS)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        try:
            body = orjson.dumps(obj, default=self.default, option=self._OPTIONS)
        except TypeError:  # an int beyond 64 bits, say: the standard encoder takes any
            return super().response(obj)
        return self._app.response_class(body, mimetype=self.mimetype)


_DESCRIPTION = (
    "An event-sourced server for four dragon board games. Every move is an immutable event; "
    "read models are rebuilt from the events. Authenticate with a bearer token from POST /api/v1/players."
)
