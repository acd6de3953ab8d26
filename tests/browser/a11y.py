"""The accessibility check: the vendored axe-core (``vendor/``), run on the page as it stands.

Violations of impact ``serious`` or ``critical`` fail the check; ``moderate`` and ``minor`` ones are
advice and do not. axe-core is evaluated through the browser's debugging protocol rather than added
as a ``<script>``, so a page's Content-Security-Policy (which forbids inline scripts) does not stop it.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
BLOCKING = ("serious", "critical")

RUN_AXE = """async () => {
  const results = await axe.run(document, {resultTypes: ["violations"]});
  return results.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
    targets: v.nodes.map(n => n.target.join(" ")),
  }));
}"""
"""Runs axe on the whole document and keeps what a report needs of each violation."""


@cache
def axe_source() -> str:
    return AXE.read_text()


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """Every violation axe finds on the page: id, impact, help, helpUrl and the CSS targets."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    violations: list[dict[str, Any]] = page.evaluate(RUN_AXE)
    return violations


def describe(violation: dict[str, Any]) -> str:
    targets = ", ".join(violation["targets"][:5])
    more = len(violation["targets"]) - 5
    if more > 0:
        targets += f" and {more} more"
    return f"{violation['id']} ({violation['impact']}): {violation['help']} [{targets}] {violation['helpUrl']}"


def check_a11y(page: Page) -> None:
    """Fails (AssertionError) when axe finds a serious or critical violation, listing each one's
    rule id, help and targets."""
    blocking = [v for v in axe_violations(page) if v["impact"] in BLOCKING]
    if blocking:
        listed = "\n".join(f"  - {describe(v)}" for v in blocking)
        raise AssertionError(f"{page.url}: {len(blocking)} serious or critical accessibility violation(s):\n{listed}")
