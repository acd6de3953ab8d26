"""The pages ``dragonhall serve`` answers with, in the browser: the ``web_server`` fixture is the real
server on the embedded default, and each page loads without a problem at both widths.

The web client (issue 22) adds its pages' tests here or beside this file; docs/web-tests.md says how.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.a11y import check_a11y
from tests.support.processes import Server

pytestmark = pytest.mark.slow


def test_the_embedded_server_plays_its_bots_games_by_itself(web_server: Server) -> None:
    """No broker and no worker process: the bots play on the server's own threads."""
    game_id, _ = web_server.bot_game("tarasque", 2)
    assert web_server.wait_status(game_id, "finished")["status"] == "finished"


def test_the_api_reference_page_loads_without_a_problem(
    page: Page, web_server: Server, shoot: Callable[[Page, str], list[Path]]
) -> None:
    page.goto(f"{web_server.base}/api/v1/docs")
    expect(page.get_by_role("heading", name="Dragonhall API v1")).to_be_visible()
    expect(page.get_by_role("link", name="OpenAPI 3 document")).to_have_attribute("href", "/api/v1/openapi.json")
    assert page.locator("table tr").count() > 20, "a row per operation"
    shoot(page, "api-docs")


def test_the_api_reference_page_has_no_serious_accessibility_violation(page: Page, web_server: Server) -> None:
    page.goto(f"{web_server.base}/api/v1/docs")
    check_a11y(page)
