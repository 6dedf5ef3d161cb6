"""The window aggregate's own call metadata, beside the calls every stateful stage shares
(`accelerator.sidecar.state_calls`): the call table of docs/design/stateful-window-aggregate.md §3.1."""

from __future__ import annotations

#: update: the operator's `currentProgress` (Long.MIN_VALUE before the first watermark).
PROGRESS = b"accelerator.progress"
#: flush: the timer service's watermark, at which stock would skip an already fired window's timer.
TIMER_WATERMARK = b"accelerator.timer_watermark"
#: fire: the watermark being processed.
WATERMARK = b"accelerator.watermark"
#: timers: the timer queue the stage keeps (`timer_queue`: heap, rocksdb, or flink for none).
TIMERS = b"accelerator.timers"

#: update answer: rows dropped as late (`numLateRecordsDropped`).
DROPPED = b"accelerator.dropped"
#: update answer: rows accepted, and the smallest slice end they went to (Long.MAX_VALUE for none).
ACCEPTED = b"accelerator.accepted"
SMALLEST_END = b"accelerator.smallest_end"
#: fire answer: windows removed without a row (their COUNT(*) is 0: stock's timer emits nothing).
EMPTY = b"accelerator.empty"

#: The state payload format this sidecar writes and reads (2: entries are slices and timers).
STATE_FORMAT_VERSION = 2
