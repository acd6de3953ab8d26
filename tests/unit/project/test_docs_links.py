"""Every link between the project's Markdown pages leads somewhere: to a file that exists and, when it
names a section, to a heading of that file (as GitHub makes anchors of headings)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)


def pages() -> Iterator[Path]:
    yield from (ROOT / name for name in ("README.md", "DEVELOPERS.md") if (ROOT / name).is_file())
    for folder in ("docs", "bench", "deploy", "domain"):
        yield from sorted((ROOT / folder).rglob("*.md"))


def links(page: Path) -> Iterator[str]:
    """The targets of the page's links outside code blocks, but those to other sites and mail."""
    for target in LINK.findall(FENCE.sub("", page.read_text())):
        if not re.match(r"[a-z][a-z0-9+.-]*:", target):
            yield target


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces made hyphens."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    headings = re.findall(r"^#+ (.+)$", FENCE.sub("", page.read_text()), re.MULTILINE)
    return {anchor(h) for h in headings}


def broken(page: Path) -> Iterator[str]:
    for target in links(page):
        path, _, section = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            yield f"{page.relative_to(ROOT)}: {target} (no such file)"
        elif section and dest.is_file() and section not in anchors(dest):
            yield f"{page.relative_to(ROOT)}: {target} (no such heading)"


def test_every_link_between_the_pages_leads_to_a_file_and_heading_that_exist() -> None:
    problems = [problem for page in pages() for problem in broken(page)]
    assert not problems, "\n".join(problems)


def test_anchors_are_made_from_headings_as_github_makes_them() -> None:
    assert anchor("Computing is allowed; trying is not (*à vue de nez*)") == (
        "computing-is-allowed-trying-is-not-à-vue-de-nez"
    )
    assert anchor("Correspondence play: clocks, timeouts, reminders") == "correspondence-play-clocks-timeouts-reminders"
    assert anchor("`http_load.py`: full games through the HTTP API") == "http_loadpy-full-games-through-the-http-api"
