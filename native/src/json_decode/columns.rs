//! The Arrow column builder of each json field type.

use crate::columns::{Column, Values};

use super::{Field, Kind};

/// A column for `field`, sized for `rows` rows and text up to `text_bytes` (the messages' bytes
/// bound every column's); a skipped one for a field the stage never reads.
pub(super) fn new_column(field: &Field, rows: usize, text_bytes: usize) -> Column {
    let kind = &field.kind;
    if !field.read {
        return skipped_column(kind);
    }
    let fixed = |width| Values::Fixed {
        width,
        bytes: Vec::with_capacity(rows * width),
    };
    let values = match kind {
        Kind::Boolean => Values::Booleans(Vec::with_capacity(rows)),
        Kind::Integer(bits) => fixed(*bits as usize / 8),
        Kind::Float | Kind::Date | Kind::Time => fixed(4),
        Kind::Double => fixed(8),
        Kind::Timestamp { .. } => Values::timestamps(rows),
        Kind::Decimal { .. } => fixed(16),
        Kind::Text => {
            let mut offsets = Vec::with_capacity((rows + 1) * 4);
            offsets.extend_from_slice(&0i32.to_le_bytes());
            Values::Text {
                offsets,
                data: Vec::with_capacity(text_bytes),
            }
        }
        Kind::Row(fields) => Values::Row(
            fields
                .iter()
                .map(|f| new_column(f, rows, text_bytes))
                .collect(),
        ),
    };
    Column {
        valid: Vec::with_capacity(rows),
        values,
    }
}

/// A column that keeps nothing of `kind` (nor of its fields, when a row).
fn skipped_column(kind: &Kind) -> Column {
    Column::skipped(match kind {
        Kind::Row(fields) => fields.iter().map(|f| skipped_column(&f.kind)).collect(),
        _ => Vec::new(),
    })
}
