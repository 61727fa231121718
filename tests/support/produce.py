"""An independent producer for tests: librdkafka (Python's confluent-kafka wheel), not kafkajs.

Reads one JSON document from stdin:
  {"brokers": "127.0.0.1:28092", "topic": "t", "compression": "lz4",
   "records": [{"partition": 0, "key": "<base64>|null", "value": "<base64>|null",
                "headers": [["name", "<base64>"]], "timestamp": 1767225600000}]}
produces every record in order (batched, so each codec compresses whole batches), waits for
every delivery report and prints {"delivered": N, "offsets": [[partition, offset], ...]}.
Exits 1 naming the first delivery error.
"""
import base64
import json
import sys

from confluent_kafka import Producer

from delivery import Deliveries


def main() -> None:
    spec = json.load(sys.stdin)
    producer = Producer({
        "bootstrap.servers": spec["brokers"],
        "compression.type": spec.get("compression", "none"),
        "linger.ms": 50,
        "batch.num.messages": 500,
        "enable.idempotence": True,
        "acks": "all",
    })
    deliveries = Deliveries()
    decode = lambda v: None if v is None else base64.b64decode(v)
    for r in spec["records"]:
        headers = [(name, decode(v)) for name, v in r.get("headers", [])]
        kwargs = {"partition": r["partition"], "key": decode(r.get("key")), "value": decode(r.get("value")), "headers": headers, "on_delivery": deliveries.report}
        if "timestamp" in r:
            kwargs["timestamp"] = r["timestamp"]
        while True:
            try:
                producer.produce(spec["topic"], **kwargs)
                break
            except BufferError:
                producer.poll(0.1)
        producer.poll(0)
    deliveries.flush_or_exit(producer)
    print(json.dumps({"delivered": len(deliveries.offsets), "offsets": deliveries.offsets}))


if __name__ == "__main__":
    main()
