"""Health, the game catalogue, and a self-contained API reference page."""

from __future__ import annotations

import dataclasses
import html
import json
import re
import typing
from typing import Any

from flask import Response, current_app, url_for

from api import meta_schemas
from api.context import current_platform
from api.parser import blueprint
from domain.kernel import Ruleset, all_games
from infra import metrics as measured
from services.operations.health import publish

blp = blueprint("meta", "Health, the catalogue of games, and these docs.")


@blp.route("/catalog", methods=["GET"])
@blp.contract(auth="none", scope=None, store=False)
@blp.response(200, meta_schemas.Catalog())
def catalog() -> dict[str, Any]:
    """Every game: variants, seat ranges, options, bots and the shape of each move type."""
    return {"games": [describe(g) for g in all_games()]}


def describe(ruleset: Ruleset[Any]) -> dict[str, Any]:
    """A game as the catalogue lists it (the API's and the web lobby's)."""
    return {
        "game": ruleset.slug,
        "title": ruleset.title,
        "engine_version": ruleset.engine_version,
        "variants": [
            {
                "name": v.name,
                "title": v.title,
                "min_seats": v.min_seats,
                "max_seats": v.max_seats,
                "description": v.description,
                "options": v.options_schema(),
            }
            for v in ruleset.variants
        ],
        "bots": sorted(ruleset.bots),
        "default_bot": ruleset.default_bot,
        "ladder": [
            {"bot": r.bot, "level": n, "title": f"Level {n}", "about": r.about} for n, r in enumerate(ruleset.ladder, 1)
        ],
        "moves": {name: _fields(cls) for name, cls in ruleset.commands.by_type.items()},
        "move_schema": ruleset.move_schema(),
        "events": sorted(ruleset.events.types),
    }


def _fields(cls: type) -> dict[str, str]:
    hints = typing.get_type_hints(cls)
    return {f.name: _type_name(hints[f.name]) for f in dataclasses.fields(cls)}


def _type_name(tp: object) -> str:
    """A type hint as read in Python, without module paths (``Magic | None``)."""
    text = str(tp) if not isinstance(tp, type) else tp.__name__
    return re.sub(r"\b(?:\w+\.)+(\w+)", r"\1", text)


def health() -> dict[str, Any]:
    """The deployment's health (``services.operations.health``): ``ok``, or ``degraded`` naming each failing
    check (the read models, the workers, the sweep), the store in use and the read models' lag.
    Always 200: a degraded deployment still serves, and ``/readyz`` says whether this process does."""
    p = current_platform()
    report = p.health.report()
    lag = next((c for c in report["checks"] if c["name"] == "projections"), None)
    body = {
        **report,
        "store": p.settings.store,
        "projections": {k: lag[k] for k in ("head", "tracked", "lag")} if lag and "lag" in lag else {},
        "games": [g.slug for g in all_games()],
    }
    return meta_schemas.Health().dump(body)


def ready() -> Response:
    """Whether this HTTP process can answer now: 200 when its store answers, 503 otherwise."""
    try:
        current_platform().head()
    except Exception as e:
        body = {"status": "not ready", "checks": [{"name": "store", "status": "degraded", "message": str(e)}]}
        return Response(json.dumps(body), status=503, mimetype="application/json")
    body = {"status": "ready", "checks": [{"name": "store", "status": "ok", "message": "the store answers"}]}
    return Response(json.dumps(body), mimetype="application/json")


def metrics() -> Response:
    """Every metric of this command's processes, in Prometheus's text format (``infra.metrics``;
    ``docs/metrics.md`` lists them). The health model's figures (lag, workers, sweep) are read now."""
    p = current_platform()
    body, content_type = measured.exposition(lambda: publish(p.health.report()))
    return Response(body, content_type=content_type)


def docs_page() -> Response:
    """A readable reference generated from the OpenAPI document, with no external assets."""
    spec = current_app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec.to_dict()
    rows = []
    for path, ops in sorted(spec.get("paths", {}).items()):
        for method, op in ops.items():
            if method not in ("get", "post", "put", "delete", "patch"):
                continue
            summary = html.escape(op.get("summary", "") or "")
            desc = html.escape(op.get("description", "") or "")
            codes = ", ".join(sorted(op.get("responses", {})))
            rows.append(
                f"<tr><td><code>{method.upper()}</code></td><td><code>{html.escape(path)}</code></td>"
                f"<td><b>{summary}</b><br>{desc}</td><td>{codes}</td></tr>"
            )
    spec_url = url_for("api-docs.openapi_json")
    body = (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>Dragonhall API</title>"
        "<style>body{font-family:sans-serif;margin:2em}td{border-top:1px solid #ddd;padding:.4em;"
        "vertical-align:top}</style></head><body><h1>Dragonhall API v1</h1>"
        f"<p>Machine-readable: <a href='{spec_url}'>OpenAPI 3 document</a>. Authenticate with "
        "<code>Authorization: Bearer &lt;token&gt;</code> (from <code>POST /api/v1/players</code>). Errors are "
        '<code>{"error": {"code", "message", "rule"?, "fields"?}}</code>.</p>'
        "<table><tr><th>method</th><th>path</th><th>what it does</th><th>responses</th></tr>"
        + "".join(rows)
        + "</table></body></html>"
    )
    return Response(body, mimetype="text/html")
