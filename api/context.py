"""The platform a request acts on, typed: every route reaches the use cases through ``current_platform``.

``create_app`` installs the ``Platform`` the composition root built (``wiring``) in the app's
extensions; routes read it back here rather than from the untyped extensions dict, so a
static reader follows a move from its route to the use case it calls.
"""

from __future__ import annotations

from flask import Flask, current_app

from wiring import Platform

EXTENSION = "dragonhall"
"""The key of the platform in ``app.extensions``."""


def install(app: Flask, platform: Platform) -> None:
    """Makes ``platform`` the one the routes of ``app`` act on."""
    app.extensions[EXTENSION] = platform


def platform_of(app: Flask) -> Platform:
    """The platform ``install`` gave ``app``."""
    platform: Platform = app.extensions[EXTENSION]
    return platform


def current_platform() -> Platform:
    """The platform of the app handling the current request."""
    platform: Platform = current_app.extensions[EXTENSION]
    return platform
