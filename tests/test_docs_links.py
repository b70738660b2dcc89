"""Every relative link of README.md and docs/*.md leads somewhere: the file exists and, for a link
with `#anchor` into a Markdown file, that file has a heading with that anchor (GitHub's rule: lower
case, punctuation dropped, spaces to hyphens, a repeated heading gets -1, -2, ...)."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _outside_code(text: str) -> list[str]:
    """The lines of a Markdown text that are not inside a ``` fence."""
    lines, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def anchor(heading: str) -> str:
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    counts: dict[str, int] = {}
    found = set()
    for line in _outside_code(path.read_text(encoding="utf-8")):
        m = re.match(r"#{1,6} (.*)", line)
        if m:
            slug = anchor(m.group(1))
            n = counts.get(slug, 0)
            counts[slug] = n + 1
            found.add(f"{slug}-{n}" if n else slug)
    return found


def test_anchor_follows_githubs_rule():
    # worked by hand from GitHub's rendering of these headings
    assert anchor("Tuning a rule (`sim tune`)") == "tuning-a-rule-sim-tune"
    assert anchor("Quick start (5 minutes)") == "quick-start-5-minutes"
    assert anchor("Nightly checks: `sim check CONFIG [--junit FILE]`") == "nightly-checks-sim-check-config---junit-file"
    assert anchor("Comparing two runs: `sim compare RUN_A RUN_B`") == "comparing-two-runs-sim-compare-run_a-run_b"


def _links():
    for page in PAGES:
        for line in _outside_code(page.read_text(encoding="utf-8")):
            line = re.sub(r"`[^`]*`", "", line)   # a link inside inline code is an example, not a link
            for target in LINK.findall(line):
                if not re.match(r"[a-z]+:", target):
                    yield pytest.param(page, target, id=f"{page.name}:{target}")


@pytest.mark.parametrize(("page", "target"), list(_links()))
def test_relative_link_resolves(page, target):
    path, _, frag = target.partition("#")
    dest = (page.parent / path).resolve() if path else page
    assert dest.exists(), f"{page.relative_to(ROOT)}: link {target!r}: no file {dest}"
    if frag and dest.suffix == ".md":
        assert frag in anchors(dest), f"{page.relative_to(ROOT)}: link {target!r}: no heading with anchor #{frag}"


def test_readme_links_the_pages_that_hold_its_former_detail():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for page in ("docs/history.md", "docs/speed.md", "docs/reliability.md", "docs/analysis.md"):
        assert f"]({page}" in readme, page
