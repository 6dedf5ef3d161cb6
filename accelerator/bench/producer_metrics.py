"""The Kafka producer's batching during a benchmark job, from Flink's metric system.

Flink's Kafka sink writer registers its producer's metrics as gauges in the operator's
`KafkaProducer` group. They vanish with the job, so a thread reads them over REST while the job
runs and keeps the last values it saw; the cluster's `metrics.fetcher.update-interval`
(`FETCH_INTERVAL`) bounds how stale they are. The producer's own averages cover its last
30 seconds or so (Kafka's sample windows), so the last reading describes the job's steady state.
"""

from __future__ import annotations

import math
import threading
import urllib.error

from accelerator.testing.flink import FlinkCluster

GROUP = "KafkaProducer"
#: Producer metrics and how subtasks combine: per-request averages are averaged, rates summed.
METRICS = {"records-per-request-avg": "mean", "batch-size-avg": "mean", "request-rate": "sum"}
#: The cluster setting that lets REST serve metrics at most this old (Flink's default is 10 s).
FETCH_INTERVAL = {"metrics.fetcher.update-interval": "1000"}
WRITER = "Writer"  # in the name of the job vertex that holds the Kafka sink's writer


class ProducerMetrics:
    """`with ProducerMetrics(cluster, job_id) as m:` ... wait for the job ...; then `m.values`."""

    def __init__(self, cluster: FlinkCluster, job_id: str, interval_s: float = 1.0):
        self.cluster, self.job_id, self.interval_s = cluster, job_id, interval_s
        self.values: dict[str, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="producer-metrics", daemon=True)

    def __enter__(self) -> "ProducerMetrics":
        self._thread.start()
        return self

    def __exit__(self, *_) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            try:
                read = self.read()
            except (urllib.error.URLError, OSError, ValueError):
                continue  # the job finished between two requests: keep what was read before
            self.values.update(read)

    def read(self) -> dict[str, float]:
        """The metrics as the JobManager has them now (empty before its first fetch)."""
        vertices = [v for v in self.cluster.rest(f"/jobs/{self.job_id}")["vertices"] if WRITER in v["name"]]
        if len(vertices) != 1:
            return {}
        values = {}
        for name, combine in METRICS.items():
            per_subtask = self.cluster.operator_metric(self.job_id, vertices[0]["name"], f"{GROUP}.{name}")
            # NaN: no request in the producer's sample windows (none yet, or they expired after the last).
            finite = [v for v in per_subtask.values() if math.isfinite(v)]
            if finite:
                values[name] = sum(finite) / len(finite) if combine == "mean" else sum(finite)
        return values
