"""Named, marker-delimited sections of a generated Markdown page (docs/performance.md), so that
several commands can each rewrite their own part of the page and leave the others alone."""

from __future__ import annotations

import re
from pathlib import Path


def _markers(name: str) -> tuple[str, str]:
    return f"<!-- {name}: begin (generated, rerun the command below to update) -->", f"<!-- {name}: end -->"


def _pattern(name: str) -> re.Pattern:
    begin, end = _markers(name)
    return re.compile(re.escape(begin) + r".*?" + re.escape(end) + r"\n?", re.S)


def extract(text: str, name: str) -> str | None:
    """The section `name` of `text`, markers included, or None when it has none."""
    found = _pattern(name).search(text)
    return found.group() if found else None


def sections(text: str) -> list[str]:
    """Every marked section of `text`, in page order, markers included."""
    names = re.findall(r"<!-- (\S+): begin ", text)
    return [s for s in (extract(text, n) for n in dict.fromkeys(names)) if s is not None]


def render(name: str, body: str) -> str:
    begin, end = _markers(name)
    return f"{begin}\n{body.rstrip()}\n{end}\n"


def replace(path: Path, name: str, body: str) -> None:
    """Put `body` between the section's markers in `path`, in place of what was there; a page
    without the section gets it appended, a missing page is created."""
    section = render(name, body)
    text = path.read_text() if path.exists() else ""
    if extract(text, name) is not None:
        text = _pattern(name).sub(lambda _: section, text, count=1)
    else:
        text = (text.rstrip("\n") + "\n\n" if text.strip() else "") + section
    path.write_text(text)
