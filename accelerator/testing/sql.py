"""`${name}` placeholders in SQL scripts, e.g. `${bootstrap}` or `${topic:bids}`."""

from __future__ import annotations

import re
from typing import Mapping

PLACEHOLDER = re.compile(r"\$\{([A-Za-z_][\w.:-]*)\}")


def render(script: str, values: Mapping[str, object]) -> str:
    """Substitute every placeholder; one without a value is an error, never left in the SQL."""
    missing = sorted({m.group(1) for m in PLACEHOLDER.finditer(script)} - set(values))
    if missing:
        raise KeyError(f"SQL placeholders without a value: {', '.join('${' + m + '}' for m in missing)}")
    return PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), script)


def placeholders(script: str) -> list[str]:
    """The distinct placeholder names in `script`, in order of first use."""
    return list(dict.fromkeys(m.group(1) for m in PLACEHOLDER.finditer(script)))
