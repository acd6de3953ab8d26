"""Screenshots of a page at a desktop and a phone width, kept as the run's artifacts.

They land in ``artifacts/screenshots/`` at the checkout's root (ignored by git), named
``<test>--<page>--<width>x<height>.png``: a reviewer sees each page as a person would, on both.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Error, Page

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
SIZES = ((1440, 900), (375, 812))
"""A desktop window and a phone (an iPhone X's CSS pixels), width by height."""


def file_stem(test: str, name: str) -> str:
    """A file name of the test's and the page's names: what is not a letter, digit, ``.``, ``_`` or
    ``-`` (a parameter's brackets, a slash) becomes ``_``."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", f"{test}--{name}")


def shoot(page: Page, test: str, name: str) -> list[Path]:
    """Saves a full-page screenshot at each size, then gives the page back its viewport."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    before = page.viewport_size
    paths = []
    try:
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            path = SCREENSHOTS / f"{file_stem(test, name)}--{width}x{height}.png"
            page.screenshot(path=path, full_page=True)
            paths.append(path)
    finally:
        if before is not None:
            page.set_viewport_size(before)
    return paths


def shoot_failure(page: Page, test: str) -> Path | None:
    """The page as a failed test left it, at its current size; None when the page cannot be shot
    (it crashed, or the failure closed it): the test's own error is what matters then."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{file_stem(test, 'failure')}.png"
    try:
        page.screenshot(path=path, full_page=True)
    except Error:
        return None
    return path
