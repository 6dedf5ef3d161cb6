"""A benchmark report made from invented runs, for tests of the page and the report's arithmetic
that must not depend on a measured run (or on which results happen to be checked in)."""

from __future__ import annotations

from accelerator.bench import queries, runner

#: CPU-seconds per million source events of each job kind, before the per-round wobble.
CPU_S_PER_M = {runner.STOCK: 10.0, runner.ACCELERATED: 4.0, runner.READ_FLOOR: 1.0, runner.WRITE_FLOOR: 1.5}


def invented_run(query: str, mode: str, round_: int, cpu_s_per_m: float, events: int = 1_000_000,
                 producer: dict[str, float] | None = None) -> runner.Run:
    seconds = cpu_s_per_m * events / 1e6
    return runner.Run(query=query, mode=mode, round=round_, job_id=f"{query}-{mode}-{round_}", events=events,
                      seconds=seconds, events_per_s=events / seconds, cpu_s={runner.TM_GROUP: seconds},
                      cpu_s_per_m=cpu_s_per_m, sidecar_cpu_s_per_m=0.0, peak_rss_mb=500.0, peak_processes=1,
                      acceleration="accelerated" if mode == runner.ACCELERATED else "stock", vertices=[],
                      output_messages=0 if mode == runner.READ_FLOOR else events, output_bytes=0,
                      producer=producer or {})


def invented_report(query_names=("q0", "q1"), rounds: int = 3, **settings) -> dict:
    """Every job of `rounds` rounds, round r costing (1 + r/10) times `CPU_S_PER_M`."""
    query_list = [queries.load(name) for name in query_names]
    floors = [queries.load(runner.read_floor_name(data)) for data in queries.DATA_TABLES
              if any(q.data == data for q in query_list)]
    runs = [invented_run(q.name, mode, r, CPU_S_PER_M[mode] * (1 + r / 10))
            for r in range(rounds) for q, mode, _ in runner.schedule(runner.jobs(query_list, floors), r, rounds)]
    base = {"events": 1_000_000, "format": "json", "parallelism": 1, "rounds": rounds, "host": "testhost",
            "date": "2026-01-01 00:00", "cpus": 2, "command": "make bench", "wall_seconds": 60.0,
            "load_average_start": [0.5], "load_average_end": [0.5], "json_path": "report.json",
            "cpu_scope": "TaskManagers", "throughput": "messages / job time"}
    return runner.build_report(runs, query_list, {**base, **settings})
