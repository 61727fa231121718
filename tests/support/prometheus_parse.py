"""Parses a Prometheus text exposition from stdin with the reference parser (prometheus_client)
and prints its families as JSON: [{"name", "type", "samples": [{"name", "labels", "value"}]}]."""
import json
import sys

from prometheus_client.parser import text_string_to_metric_families

families = [
    {"name": f.name, "type": f.type, "samples": [{"name": s.name, "labels": s.labels, "value": s.value} for s in f.samples]}
    for f in text_string_to_metric_families(sys.stdin.read())
]
print(json.dumps(families))
