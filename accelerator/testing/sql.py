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


def split_statements(script: str) -> list[str]:
    """Split a script at top-level semicolons, as sql-client.sh -f does.

    Semicolons inside '...' strings (with '' escapes), "..." and `...` identifiers, `--` line
    comments and `/* */` block comments do not end a statement. Comments are kept inside the
    statement text; statements that are only whitespace or comments are dropped.
    """
    statements, current, i, n = [], [], 0, len(script)
    while i < n:
        c = script[i]
        if c in "'\"`":
            end = i + 1
            while end < n:
                if script[end] == c:
                    if c == "'" and end + 1 < n and script[end + 1] == "'":
                        end += 2
                        continue
                    break
                end += 1
            current.append(script[i:end + 1])
            i = end + 1
        elif script.startswith("--", i):
            end = script.find("\n", i)
            end = n if end < 0 else end
            current.append(script[i:end])
            i = end
        elif script.startswith("/*", i):
            end = script.find("*/", i + 2)
            end = n if end < 0 else end + 2
            current.append(script[i:end])
            i = end
        elif c == ";":
            statements.append("".join(current))
            current, i = [], i + 1
        else:
            current.append(c)
            i += 1
    statements.append("".join(current))
    return _join_statement_sets([s.strip() for s in statements if _has_code(s)])


STATEMENT_SET_START = re.compile(r"^(?:--[^\n]*\n\s*|/\*.*?\*/\s*)*EXECUTE\s+STATEMENT\s+SET\s+BEGIN\b", re.I | re.S)


def _join_statement_sets(statements: list[str]) -> list[str]:
    """`EXECUTE STATEMENT SET BEGIN ...; ...; END` is one statement although it holds semicolons."""
    out: list[str] = []
    block: list[str] | None = None
    for statement in statements:
        if block is None and STATEMENT_SET_START.match(statement):
            block = [statement]
        elif block is not None:
            block.append(statement)
        else:
            out.append(statement)
        if block is not None and statement.upper() == "END":
            out.append(";\n".join(block[:-1]) + ";\nEND")
            block = None
    if block is not None:
        raise ValueError("EXECUTE STATEMENT SET BEGIN without END: " + block[0][:200])
    return out


def _has_code(statement: str) -> bool:
    without_comments = re.sub(r"--[^\n]*|/\*.*?\*/", "", statement, flags=re.S)
    return bool(without_comments.strip())
