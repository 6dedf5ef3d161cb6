"""A finished job's checkpoints, from Flink's REST API (`/jobs/<id>/checkpoints`): how many
completed, and the size and duration of the last one and on average, as the benchmark reports them."""

from __future__ import annotations

from accelerator.testing.flink import FlinkCluster

SIZES_AND_DURATIONS = (("state_bytes", "state_size"), ("checkpointed_bytes", "checkpointed_size"),
                       ("duration_ms", "end_to_end_duration"))
#: The numbers of `stats`, which a summary over the rounds takes the median of.
NUMBERS = ("completed", "failed", *(f"{when}_{name}" for name, _ in SIZES_AND_DURATIONS for when in ("last", "avg")))


def stats(cluster: FlinkCluster, job_id: str) -> dict:
    """completed, failed (and the first failed one's message, as Flink gives it); last_/avg_
    state_bytes (full size of the checkpointed state), checkpointed_bytes (what the checkpoint
    wrote: less than the state when incremental) and duration_ms (end to end); None when no
    checkpoint completed."""
    data = cluster.rest(f"/jobs/{job_id}/checkpoints")
    counts, summary = data.get("counts", {}), data.get("summary", {})
    last = (data.get("latest") or {}).get("completed") or {}
    out = {"completed": counts.get("completed", 0), "failed": counts.get("failed", 0)}
    failures = [c.get("failure_message") for c in data.get("history", []) if c.get("status") == "FAILED"]
    out["first_failure"] = next((f for f in failures if f), None)
    for name, key in SIZES_AND_DURATIONS:
        out[f"last_{name}"] = last.get(key)
        out[f"avg_{name}"] = (summary.get(key) or {}).get("avg") if out["completed"] else None
    return out
