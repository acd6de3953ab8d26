"""``/metrics`` and ``/readyz`` of a process that serves no HTTP: ``worker`` and ``projections``.

Their counts (bot turns, timers, webhooks, the read models' lag) used to reach
Prometheus only through an HTTP process that shared their metrics directory; in
containers none did, and the dashboard's panels stayed empty. So each such command
serves its own, on ``--metrics-port`` (``DRAGONHALL_METRICS_PORT``), with the
client's threaded WSGI server: ``/metrics`` the sums of the command's processes
(``infra.metrics.exposition``), ``/readyz`` whether this process does its job now
(200 ready, 503 not: the body's ``checks`` say why), for a container's healthcheck
or a load balancer. Nothing else is served (404).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import orjson
from prometheus_client.exposition import ThreadingWSGIServer

from infra import metrics

Readiness = Callable[[], dict[str, Any]]
"""What ``/readyz`` answers: a dict with ``status`` (``ready`` or anything else) and the checks."""


class _Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Scrapes are not logged."""


def app(readiness: Readiness, update: Callable[[], object] | None = None) -> Callable[..., Iterable[bytes]]:
    """The WSGI app: ``GET /metrics`` and ``GET /readyz``."""

    def serve(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if environ.get("REQUEST_METHOD") != "GET":
            start_response("405 Method Not Allowed", [("Allow", "GET")])
            return [b""]
        if path == "/metrics":
            body, content_type = metrics.exposition(update)
            start_response("200 OK", [("Content-Type", content_type)])
            return [body]
        if path == "/readyz":
            answer = readiness()
            status = "200 OK" if answer.get("status") == "ready" else "503 Service Unavailable"
            start_response(status, [("Content-Type", "application/json")])
            return [orjson.dumps(answer)]
        start_response("404 Not Found", [("Content-Type", "text/plain")])
        return [b"/metrics or /readyz\n"]

    return serve


def start(host: str, port: int, readiness: Readiness, update: Callable[[], object] | None = None) -> WSGIServer:
    """Serves ``/metrics`` and ``/readyz`` on ``host:port`` from a daemon thread (``update`` sets the
    gauges read at a scrape); ``shutdown()`` stops it."""
    server = make_server(host, port, app(readiness, update), ThreadingWSGIServer, handler_class=_Quiet)
    threading.Thread(target=server.serve_forever, name="dragonhall-metrics", daemon=True).start()
    return server
