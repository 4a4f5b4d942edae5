"""Issue 38: the README starts with play and stays short; what moved out of it lives in
docs/, and every link of the README and of docs/*.md leads somewhere (a file that exists,
and a heading that exists for a ``#fragment``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)

# The README's sections that moved out (issue 38), each with the page that keeps it now.
MOVED = {
    "docs/operators.md": ["Invite the bot", "Run the bot", "Upgrades", "Docker", "Environment variables"],
    "docs/table.md": ["Try it without Discord", "Serve it with the bot"],
    "docs/benchmarks.md": ["Benchmarks"],
    "docs/development.md": ["Layout", "Tests", "Locked versions", "Engine command line", "Plan notation"],
    "docs/playing.md": ["Play", "Configure"],
    "docs/architecture.md": ["The layers", "The walk of one action", "Where each kind of change goes"],
    "docs/scaling.md": ["Shards"],
}


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def headings(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text("utf-8"))
    return [m.group(2) for m in re.finditer(r"^(#{1,6})\s+(.+?)\s*$", text, re.M)]


def links(page: Path) -> list[str]:
    return LINK.findall(FENCE.sub("", page.read_text("utf-8")))


def broken_links(page: Path) -> list[str]:
    bad = []
    for target in links(page):
        if re.match(r"^[a-z]+:", target):  # https:, mailto: ... : not checked offline
            continue
        path_part, _, fragment = target.partition("#")
        dest = (page.parent / path_part).resolve() if path_part else page
        if not dest.exists():
            bad.append(f"{target}: no such file")
            continue
        if fragment and dest.suffix == ".md" and fragment not in {slug(h) for h in headings(dest)}:
            bad.append(f"{target}: no such heading in {dest.name}")
    return bad


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_leads_somewhere(page: Path) -> None:
    assert broken_links(page) == []


def test_a_broken_link_is_found(tmp_path: Path) -> None:
    (tmp_path / "there.md").write_text("# Here it is\n", "utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](there.md#here-it-is) [gone](missing.md) [no anchor](there.md#elsewhere)\n"
        "```\n[in code](ignored.md)\n```\n",
        "utf-8",
    )
    assert broken_links(page) == ["missing.md: no such file", "there.md#elsewhere: no such heading in there.md"]


def test_slug_is_githubs() -> None:
    assert slug("The pictures in docs/") == "the-pictures-in-docs"
    assert slug("Run the bot") == "run-the-bot"
    assert slug("`/games` and more") == "games-and-more"


def test_the_readme_is_short_and_starts_with_play() -> None:
    text = (ROOT / "README.md").read_text("utf-8")
    lines = text.splitlines()
    assert len(lines) < 200, len(lines)
    sections = headings(ROOT / "README.md")[1:]
    assert sections[:2] == ["Set up", "Play"], sections
    for command in ("make demo", "make test", "make run"):
        assert command in text, command


@pytest.mark.parametrize("page", sorted(MOVED), ids=str)
def test_each_moved_section_lives_in_docs_and_the_readme_links_it(page: str) -> None:
    found = headings(ROOT / page)
    for section in MOVED[page]:
        assert section in found, f"{section!r} is not a heading of {page}"
    assert f"({page})" in (ROOT / "README.md").read_text("utf-8"), f"the README does not link {page}"
