"""The fields and bounds the API's marshmallow schemas share: the bounds of requests' numbers and
names, the fields of a game slug, a bot, a variant, a move and a moment ahead, and the apispec
functions that document them.

Requests reject unknown fields (marshmallow's default), so a misspelt field is a
400 that names it rather than a silently ignored option.
"""

from __future__ import annotations

from datetime import date, datetime
from functools import cached_property
from typing import Any

from marshmallow import ValidationError, fields, validate

from domain.kernel import ConfigError, all_games, find_game
from services.accounts.credentials import MAX_PASSWORD, MIN_PASSWORD
from services.common import clock, date_rules

DAY = 86_400
LARGEST = 2**31 - 1
"""The bound of every unbounded integer argument: the stores' integers end at 2**63 - 1."""
MAX_SECONDS = 14 * DAY
MAX_PLAYER_ID = 64
"""The longest player id an invitation may name (ids are 36-character UUIDs)."""


NEW_PASSWORD = validate.Length(
    MIN_PASSWORD, MAX_PASSWORD, error=f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters"
)
"""A password being chosen: bounded in the schema, so the OpenAPI document says what is accepted
(a password to sign in with is only bounded in size: a wrong one is a 401, whatever its length)."""


def strict_int(**kw: Any) -> fields.Integer:
    """An integer of a JSON body: a string or a float is refused, not converted."""
    return fields.Integer(strict=True, **kw)


class StrictBoolean(fields.Boolean):
    """A boolean of a JSON body: ``true`` or ``false`` only. Marshmallow's ``Boolean`` takes
    ``"yes"``, ``"no"``, ``0`` and ``1`` as well, so a client's mistake became a choice."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if value is True or value is False:
            return value
        raise self.make_error("invalid")


def moment_ahead(value: datetime) -> None:
    """The rule of every moment a request carries (``services.common.date_rules.MOMENT``)."""
    error = date_rules.moment_error(value, clock.now())
    if error is not None:
        raise ValidationError(error)


def day_ahead(value: date) -> None:
    """The rule of every day a request carries (``services.common.date_rules.DAY``)."""
    error = date_rules.day_error(value, clock.now().date())
    if error is not None:
        raise ValidationError(error)


def ahead(description: str, **kw: Any) -> fields.AwareDateTime:
    """A moment of a request: in the future, and at most ``date_rules.HORIZON`` ahead."""
    return fields.AwareDateTime(
        validate=moment_ahead, metadata={"description": f"{description} A date-time {date_rules.MOMENT}."}, **kw
    )


class Selected(fields.Nested):
    """A nested response schema over values that the service already writes as JSON
    types (events, legal moves): the dump keeps the schema's fields and nothing else,
    as ``Nested`` does, but takes each value as it is instead of serialising it field
    by field. The OpenAPI document describes it as the nested schema.

    A move's answer holds a handful of events and the mover's next legal moves, and
    dumping them field by field took about a tenth of the request's CPU time. Only for
    values whose types already match the schema: ``tests/unit/api`` checks that the
    two dumps agree on every event of whole games."""

    # marshmallow's Nested names the first parameter nested_obj and its base Field names it value:
    # no override can match both.
    def _serialize(self, nested_obj: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        if nested_obj is None:
            return None
        keys = self._keys
        if self.many:
            return [{out: item[name] for name, out in keys if name in item} for item in nested_obj]
        return {out: nested_obj[name] for name, out in keys if name in nested_obj}

    @cached_property
    def _keys(self) -> list[tuple[str, str]]:
        """Each dumped field's attribute name and its name in the body."""
        return [(name, f.data_key or name) for name, f in self.schema.dump_fields.items()]


class MoveField(fields.Raw):
    """A move, ``{"type": ..., **fields}``: loaded as any JSON object (the game's ``parse_move``
    checks its shape, naming the field at fault), documented as the ``Move`` schema of
    ``api.move_docs`` (``move_property``), which every game's move schema is part of."""

    default_error_messages = {"invalid": "Not a valid mapping type."}

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, dict):
            raise self.make_error("invalid")
        return value


class Built(fields.Raw):
    """Lists of lists the server built itself, dumped as they are and documented as ``shape``.

    Marshmallow's nested ``List`` fields look at every item: a page of a thousand moves' choices
    and refs took about half of a ``legal-moves?words=true`` answer's time in them, for data that
    needs no conversion. The OpenAPI document shows ``shape`` (``built_property``)."""

    def __init__(self, shape: fields.Field, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.shape = shape


class GameSlug(fields.String):
    """A registered game's slug, refused (400) otherwise, as the service would refuse it; the
    OpenAPI document lists the registered slugs as its enum (``catalog_enum``)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        slug = super()._deserialize(value, attr, data, **kwargs)
        try:
            find_game(slug)
        except ConfigError as e:
            raise ValidationError(e.message) from None
        return slug


class BotName(fields.String):
    """A server bot's name, one of a registered game's bots (GET /api/v1/catalog); whether the game
    at hand has it is the service's to say. The OpenAPI document lists them as its enum."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        name = super()._deserialize(value, attr, data, **kwargs)
        known = server_bots()
        if name not in known:
            raise ValidationError(f"unknown bot {name!r}; expected one of: {', '.join(known)}")
        return name


class VariantName(fields.String):
    """A variant's name, one of a registered game's variants (GET /api/v1/catalog); whether the
    game at hand has it is the service's to say. The OpenAPI document lists them as its enum."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        name = super()._deserialize(value, attr, data, **kwargs)
        known = variant_names()
        if name not in known:
            raise ValidationError(f"unknown variant {name!r}; expected one of: {', '.join(known)}")
        return name


def variant_names() -> list[str]:
    """Every registered game's variants, by name."""
    return sorted({v.name for game in all_games() for v in game.variants})


def server_bots() -> list[str]:
    """Every registered game's bots, by name."""
    return sorted({bot for game in all_games() for bot in game.bots})


def catalog_enum(converter: Any, field: fields.Field, ret: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """An apispec attribute function: a ``GameSlug``, ``BotName`` or ``VariantName`` is documented
    with the enum of the games, bots or variants registered when the document is built (every
    process registers them first); null is one of them where the field allows it (OpenAPI 3.0.3:
    ``nullable`` does not add null to an enum)."""
    if isinstance(field, GameSlug):
        values: list[Any] = [g.slug for g in all_games()]
    elif isinstance(field, BotName):
        values = server_bots()
    elif isinstance(field, VariantName):
        values = variant_names()
    else:
        return {}
    return {"enum": [*values, None] if field.allow_none else values}


def move_property(converter: Any, field: fields.Field, ret: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """An apispec attribute function: a ``MoveField`` is documented as a reference to ``Move``
    (beside its description, if any, through ``allOf``, as OpenAPI 3.0 ignores a reference's siblings)."""
    if not isinstance(field, MoveField):
        return {}
    ref = {"$ref": "#/components/schemas/Move"}
    if not ret:
        return ref
    return {"allOf": [ref]}


def built_property(converter: Any, field: fields.Field, ret: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """An apispec attribute function: a ``Built`` field is documented as the shape it holds."""
    if not isinstance(field, Built):
        return {}
    shape = dict(converter.field2property(field.shape))
    shape.pop("description", None)
    return shape
