"""Reading a format's table option values the way Flink's ConfigOptions do."""

from __future__ import annotations


def boolean(options: dict[str, str], key: str, default: bool, error: type[ValueError]) -> bool:
    """A boolean option: 'true' or 'false' in any case, `default` when absent; anything else
    raises `error` (the format's own OptionError), as Flink rejects it."""
    value = options.get(key)
    if value is None:
        return default
    if value.lower() not in ("true", "false"):
        raise error(f"option {key} must be true or false, not {value!r}")
    return value.lower() == "true"
