"""webargs parser that speaks the contract: schema errors and bad JSON are our 400s."""

from __future__ import annotations

from typing import Any, NoReturn

from flask_smorest import Blueprint
from webargs import core
from webargs.flaskparser import FlaskParser

from api.errors import MalformedJSON, RequestInvalid


class ContractParser(FlaskParser):
    def handle_error(self, error: Any, req: Any, schema: Any, *, error_status_code: Any,
                     error_headers: Any) -> NoReturn:
        messages = error.messages
        if isinstance(messages, dict) and set(messages) <= {"json", "query", "querystring", "view_args"}:
            merged: dict[str, Any] = {}
            for part in messages.values():
                merged.update(part if isinstance(part, dict) else {"_schema": part})
            messages = merged
        raise RequestInvalid(messages)

    def _handle_invalid_json_error(self, error: Any, req: Any, *args: Any, **kwargs: Any) -> NoReturn:
        raise MalformedJSON(str(error))

    def _raw_load_json(self, req: Any) -> Any:
        """Parses any non-empty body as JSON, whatever its declared content type."""
        data = req.get_data(cache=True)
        if not data:
            return core.missing
        return core.parse_json(data)


def blueprint(name: str, description: str) -> Blueprint:
    blp = Blueprint(name, name, url_prefix="/api/v1", description=description)
    blp.ARGUMENTS_PARSER = ContractParser()
    return blp
