"""Flink's RowKind byte values (`RowKind.toByteValue`), as the stateful stages answer a row's kind."""

INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE = 0, 1, 2, 3
