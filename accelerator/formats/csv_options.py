"""The `csv` format's table options, read the way Flink's CsvFormatFactory (flink-csv 2.2.1)
reads them, limited to the settings the accelerator reproduces exactly."""

from __future__ import annotations

from dataclasses import dataclass

from accelerator.formats import option_values

FIELD_DELIMITER = "csv.field-delimiter"
DISABLE_QUOTE_CHARACTER = "csv.disable-quote-character"
QUOTE_CHARACTER = "csv.quote-character"
ALLOW_COMMENTS = "csv.allow-comments"
IGNORE_PARSE_ERRORS = "csv.ignore-parse-errors"
ARRAY_ELEMENT_DELIMITER = "csv.array-element-delimiter"
ESCAPE_CHARACTER = "csv.escape-character"
NULL_LITERAL = "csv.null-literal"
SCIENTIFIC_DECIMALS = "csv.write-bigdecimal-in-scientific-notation"
KNOWN = (FIELD_DELIMITER, DISABLE_QUOTE_CHARACTER, QUOTE_CHARACTER, ALLOW_COMMENTS, IGNORE_PARSE_ERRORS,
         ARRAY_ELEMENT_DELIMITER, ESCAPE_CHARACTER, NULL_LITERAL, SCIENTIFIC_DECIMALS)
#: Delimiter and quote characters the accelerator takes: printable ASCII other than the
#: backslash (Jackson's quoting rule compares character codes with these; beyond ASCII, and for
#: letters or digits, the rule is not proven here).
_PLAIN = frozenset(chr(c) for c in range(0x21, 0x7F)) - set("\\" "0123456789"
                                                          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


class OptionError(ValueError):
    """An option Flink rejects, or a setting the accelerator does not reproduce."""


@dataclass(frozen=True)
class CsvOptions:
    field_delimiter: str = ","
    quote_character: str | None = '"'  # None: quoting disabled
    escape_character: str | None = None
    null_literal: str | None = None  # None: no null literal (decoding); written as ""
    array_element_delimiter: str = ";"
    allow_comments: bool = False
    ignore_parse_errors: bool = False
    #: Only an explicit 'true' switches Flink to scientific notation; left unset it writes plain.
    scientific_decimals: bool = False


def _boolean(options: dict[str, str], key: str, default: bool) -> bool:
    return option_values.boolean(options, key, default, OptionError)


def _character(options: dict[str, str], key: str, default: str | None, unescape: bool = False) -> str | None:
    value = options.get(key)
    if value is None:
        return default
    if unescape and value == "\\t":  # Flink unescapes the field delimiter the way Java source text is
        value = "\t"
    if len(value) != 1:
        raise OptionError(f"option {key} must be a single character, not {value!r}")
    return value


def parse_options(options: dict[str, str]) -> CsvOptions:
    """Read the table's `csv.*` options (full keys, string values, as in the DDL)."""
    unknown = sorted(k for k in options if k.startswith("csv.") and k not in KNOWN)
    if unknown:
        raise OptionError(f"unsupported csv format options {unknown}; supported are {list(KNOWN)}")
    disable_quote = _boolean(options, DISABLE_QUOTE_CHARACTER, False)
    if disable_quote and QUOTE_CHARACTER in options:
        raise OptionError("Format cannot define a quote character and disabled quote character at the same time.")
    delimiter = _character(options, FIELD_DELIMITER, ",", unescape=True)
    quote = None if disable_quote else _character(options, QUOTE_CHARACTER, '"')
    escape = _character(options, ESCAPE_CHARACTER, None)
    array_delimiter = _character(options, ARRAY_ELEMENT_DELIMITER, ";")
    if delimiter != "\t" and delimiter not in _PLAIN:
        raise OptionError(f"'{FIELD_DELIMITER}' = {delimiter!r} is not accelerated (only printable ASCII "
                          f"punctuation or a tab)")
    if array_delimiter not in _PLAIN:
        raise OptionError(f"'{ARRAY_ELEMENT_DELIMITER}' = {array_delimiter!r} is not accelerated (only printable "
                          f"ASCII punctuation)")
    if quote is not None and quote not in _PLAIN:
        raise OptionError(f"'{QUOTE_CHARACTER}' = {quote!r} is not accelerated (only printable ASCII punctuation)")
    if quote == delimiter:
        raise OptionError(f"the quote character and the field delimiter are both {quote!r}")
    if escape is not None and (escape != "\\" or quote is None):
        raise OptionError(f"'{ESCAPE_CHARACTER}' = {escape!r} is accelerated only as a backslash with quoting on")
    return CsvOptions(field_delimiter=delimiter, quote_character=quote, escape_character=escape,
                      null_literal=options.get(NULL_LITERAL), array_element_delimiter=array_delimiter,
                      allow_comments=_boolean(options, ALLOW_COMMENTS, False),
                      ignore_parse_errors=_boolean(options, IGNORE_PARSE_ERRORS, False),
                      scientific_decimals=_boolean(options, SCIENTIFIC_DECIMALS, False))
