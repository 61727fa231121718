"""The fault tier's load: librdkafka (confluent-kafka), idempotent, acks=all, so a record it
reports delivered is in the log once, however the cluster moves underneath it.

argv: brokers topic count rate_per_second [keys]
Produces values "seq-<n>" for n in [0, count) at about `rate` per second, keyed "<n>" (the
default partitioner spreads them), or "<n % keys>" when `keys` is given (so records share keys,
as parallelizationFactor's per-key order needs to be exercised), retries through any fault for up to 120 s per record, then prints
{"acked": N, "failed": [[seq, error], ...], "seconds": S}.
"""
import json
import sys
import time

from confluent_kafka import Producer


def main() -> None:
    brokers, topic, count, rate = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    keys = int(sys.argv[5]) if len(sys.argv) > 5 else None
    producer = Producer({
        "bootstrap.servers": brokers,
        "enable.idempotence": True,
        "acks": "all",
        "linger.ms": 5,
        "message.timeout.ms": 120000,
        "partitioner": "murmur2_random",
        "topic.metadata.refresh.interval.ms": 1000,
    })
    acked = 0
    failed = []

    def report(err, msg):
        nonlocal acked
        if err is None:
            acked += 1
        else:
            failed.append([msg.value().decode(), str(err)])

    started = time.monotonic()
    for n in range(count):
        due = started + n / rate
        while time.monotonic() < due:
            producer.poll(min(0.05, max(0.0, due - time.monotonic())))
        while True:
            try:
                producer.produce(topic, key=str(n if keys is None else n % keys).encode(), value=f"seq-{n}".encode(), on_delivery=report)
                break
            except BufferError:
                producer.poll(0.1)
        producer.poll(0)
    producer.flush(150)
    print(json.dumps({"acked": acked, "failed": failed, "seconds": round(time.monotonic() - started, 1)}))


if __name__ == "__main__":
    main()
