"""Every relative link in README.md and docs/*.md leads somewhere: a file that exists, a heading that exists.

GitHub's anchors: a heading lower-cased, its punctuation but hyphens and
underscores dropped, spaces made hyphens, a repeat given -1, -2, ... Links
in code (fenced or inline) are not links. Web links are not followed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.M | re.S)
INLINE_CODE = re.compile(r"`[^`\n]*`")
# [text](target "title") and ![alt](target); reference definitions: [name]: target
INLINE_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.M)
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)


def _prose(path: Path) -> str:
    return INLINE_CODE.sub("", FENCE.sub("", path.read_text(encoding="utf-8")))


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for heading in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        text = re.sub(r"`([^`]*)`", r"\1", heading)  # code in a heading keeps its text
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # so does a link
        slug = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    text = _prose(path)
    broken = []
    for target in INLINE_LINK.findall(text) + REFERENCE.findall(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        where = (path.parent / file).resolve() if file else path
        if not where.exists():
            broken.append(f"{target}: no {where.relative_to(root) if where.is_relative_to(root) else where}")
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            broken.append(f"{target}: no heading #{anchor} in {where.relative_to(root)}")
    return broken


@pytest.mark.parametrize("document", DOCUMENTS, ids=[str(path.relative_to(ROOT)) for path in DOCUMENTS])
def test_every_relative_link_resolves(document):
    assert broken_links(document) == []


def test_the_check_sees_links_and_anchors(tmp_path):
    # Not vacuous: a link to a missing file or heading is found, and good ones pass.
    (tmp_path / "other.md").write_text("# A title: with `code`, punctuation\n\n## Twice\n\n## Twice\n")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](other.md) [ok](other.md#a-title-with-code-punctuation) [ok](other.md#twice-1) [ok](#here)\n"
        "[gone](missing.md) [gone](other.md#nowhere) [web](https://example.org/x)\n"
        "`[code](not-a-link.md)`\n\n```\n[fenced](not-a-link-either.md)\n```\n\n## Here\n\n[ref]: gone-too.md\n"
    )
    assert broken_links(page, tmp_path) == [
        "missing.md: no missing.md", "other.md#nowhere: no heading #nowhere in other.md", "gone-too.md: no gone-too.md"]


def test_building_md_maps_every_module_to_tests_that_exist():
    """docs/building.md's table of which tests cover which module: every module in it, every test real."""
    text = (ROOT / "docs" / "building.md").read_text(encoding="utf-8")
    section = text.split("## Which tests cover which module", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`(\w+\.py)`", section))
    modules = {path.name for path in (ROOT / "llvmplug").glob("*.py")}
    tests = {name for name in named if name.startswith("test_")}
    assert modules - named == set(), "modules the table leaves out"
    assert {name for name in tests if not (ROOT / "tests" / name).is_file()} == set(), "test files that do not exist"
    assert named - modules - tests == set(), "names in the table that are neither a module nor a test file"
