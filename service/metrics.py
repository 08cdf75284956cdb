"""/metrics in Prometheus text: events appended, projection positions and lag, request latency.

Each process keeps its own request histogram (a scrape sees the worker that answers);
store and projection figures are read from the stores at scrape time, so any worker
reports them for the whole service.
"""

import time

from flask import Flask, Response, g, request
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, SummaryMetricFamily

from projections.batch import ReadStoreUnavailable


class StoreCollector:
    def __init__(self, store, projector):
        self.store, self.projector = store, projector

    def collect(self):
        positions = self.projector.store_positions()  # per shard
        yield CounterMetricFamily("arbiter_events_appended", "Events appended to the event store (all streams, "
                                  "every shard)", value=sum(positions.values()))
        projection = GaugeMetricFamily("arbiter_projection_position", "Last notification applied",
                                       labels=["projection"])
        lag = GaugeMetricFamily("arbiter_projection_lag_events", "Notifications not yet applied",
                                labels=["projection"])
        try:
            for name, applied in self.projector.positions().items():  # "name", or "name@shard"
                projection.add_metric([name], applied)
                lag.add_metric([name], max(0, positions[name.partition("@")[2]] - applied))
        except ReadStoreUnavailable:
            pass
        yield projection
        yield lag
        lags = self.projector.lags
        if lags:
            yield SummaryMetricFamily("arbiter_projection_lag_seconds",
                                      "Seconds from append to read-model commit (this process's projector)",
                                      count_value=len(lags), sum_value=sum(lags))


def register_metrics(app: Flask, store, projector) -> None:
    registry = CollectorRegistry()
    latency = Histogram("arbiter_request_duration_seconds", "HTTP request latency",
                        ["method", "endpoint", "status"], registry=registry,
                        buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5))
    registry.register(StoreCollector(store, projector))

    @app.before_request
    def start_timer():
        g.started = time.perf_counter()

    @app.after_request
    def observe(response):
        if "started" in g and request.endpoint != "v1.stream":
            latency.labels(request.method, request.endpoint or "unknown", response.status_code).observe(
                time.perf_counter() - g.started)
        return response

    @app.get("/metrics")
    def metrics():
        return Response(generate_latest(registry), mimetype=CONTENT_TYPE_LATEST)
