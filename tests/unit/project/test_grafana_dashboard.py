"""The sample Grafana dashboard and the alert rules (deploy/prometheus/) read only metrics the code defines
(infra/metrics.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from prometheus_client import Counter, Gauge, Histogram

from infra import metrics

ROOT = Path(__file__).resolve().parents[3]


def _series() -> set[str]:
    """The series names each metric of ``infra.metrics`` exposes."""
    names: set[str] = set()
    for value in vars(metrics).values():
        if isinstance(value, Counter):
            names.add(value._name + "_total")
        elif isinstance(value, Histogram):
            names |= {value._name + suffix for suffix in ("_bucket", "_sum", "_count")}
        elif isinstance(value, Gauge):
            names.add(value._name)
    return names


def test_every_panel_queries_metrics_the_code_defines() -> None:
    dashboard = json.loads((ROOT / "deploy" / "prometheus" / "grafana-dashboard.json").read_text())
    exprs = [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
    used = {name for expr in exprs for name in re.findall(r"\bdragonhall_\w+", expr)}
    assert used and used <= _series(), used - _series()


def test_every_metric_is_documented() -> None:
    documented = (ROOT / "docs" / "metrics.md").read_text()
    for value in vars(metrics).values():
        if isinstance(value, Counter | Gauge | Histogram):
            name = value._name + ("_total" if isinstance(value, Counter) else "")
            assert f"`{name}`" in documented, name


def test_every_alert_rule_reads_metrics_the_code_defines() -> None:
    import yaml

    rules = yaml.safe_load((ROOT / "deploy" / "prometheus" / "alerts.yml").read_text())
    exprs = [rule["expr"] for group in rules["groups"] for rule in group["rules"]]
    used = {name for expr in exprs for name in re.findall(r"\bdragonhall_\w+", expr)}
    assert used and used <= _series(), used - _series()
