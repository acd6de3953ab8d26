"""The client library's reference, rendered from its docstrings: ``docs/client.md``.

    python -m dragonhall.reference > docs/client.md

A test checks that the file is what this prints, so the reference is the code's own words.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator

from dragonhall import bot, client, errors, invitations, streams, transport

HEAD = """# The client library's reference

Rendered from the docstrings of the `dragonhall` package by `python -m dragonhall.reference`; a test
checks that this file is what it prints. [bots.md](bots.md) is the guide; this is every class, method,
option and error.
"""

CLASSES = (
    (client, ("Client",)),
    (transport, ("Transport", "Retry")),
    (
        errors,
        tuple(n for n, c in vars(errors).items() if isinstance(c, type) and issubclass(c, errors.DragonhallError)),
    ),
    (bot, ("BotRunner", "GamePlayer", "RandomStrategy", "AdviceStrategy")),
    (invitations, ("InvitationRules",)),
)
FUNCTIONS = ((bot, ("load_strategy",)), (streams, ("game_stream", "account_stream")), (client, ("new_command_id",)))


def render() -> str:
    return "\n".join([HEAD, *_sections()]).rstrip() + "\n"


def _sections() -> Iterator[str]:
    for module, names in CLASSES:
        yield f"\n## `{module.__name__}`\n\n{_doc(module)}\n"
        for name in names:
            yield from _class(getattr(module, name))
    yield "\n## Functions\n"
    for module, names in FUNCTIONS:
        for name in names:
            f = getattr(module, name)
            yield f"### `{module.__name__}.{name}{_signature(f)}`\n\n{_doc(f)}\n"


def _class(cls: type) -> Iterator[str]:
    bases = ", ".join(b.__name__ for b in cls.__bases__ if b is not object)
    own = "__init__" in vars(cls) or not any("__init__" in vars(b) for b in cls.__mro__[1:-1])
    yield (
        f"\n### `{cls.__name__}{_signature(cls) if own else ''}`"
        + (f" ({bases})" if bases else "")
        + f"\n\n{_doc(cls)}\n"
    )
    for name, member in vars(cls).items():
        if name.startswith("_") or (not callable(member) and not isinstance(member, classmethod)):
            continue
        f = member.__func__ if isinstance(member, classmethod) else member
        yield f"- **`{name}{_signature(f, method=True)}`**: {_doc(f, flat=True)}"


def _signature(f: object, method: bool = False) -> str:
    try:
        sig = inspect.signature(f)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return ""
    params = list(sig.parameters.values())
    if method and params and params[0].name in ("self", "cls"):
        params = params[1:]
    bare = [p.replace(annotation=inspect.Parameter.empty) for p in params]
    return str(sig.replace(parameters=bare, return_annotation=inspect.Signature.empty))


def _doc(obj: object, flat: bool = False) -> str:
    """The object's docstring; on one line for a list item."""
    text = inspect.cleandoc(obj.__doc__) if obj.__doc__ else "(undocumented)"
    return " ".join(text.split()) if flat else text


if __name__ == "__main__":
    print(render(), end="")
