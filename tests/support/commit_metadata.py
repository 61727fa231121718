"""Commits, or reads back, a group's offset of one partition with its metadata string, through
librdkafka (an independent client: neither kafkajs nor Sluice). Input on stdin, one JSON object:
{"brokers", "groupId", "topic", "partition", and for a commit "offset" and "metadata"}.
Prints {"offset": n, "metadata": "..." or null} as the coordinator has it after the call."""
import json
import sys

from confluent_kafka import Consumer, TopicPartition


def main() -> None:
    req = json.load(sys.stdin)
    consumer = Consumer({"bootstrap.servers": req["brokers"], "group.id": req["groupId"], "enable.auto.commit": False})
    try:
        tp = TopicPartition(req["topic"], req["partition"])
        if "offset" in req:
            tp = TopicPartition(req["topic"], req["partition"], req["offset"], metadata=req.get("metadata"))
            consumer.commit(offsets=[tp], asynchronous=False)
        [got] = consumer.committed([TopicPartition(req["topic"], req["partition"])], timeout=30)
        print(json.dumps({"offset": got.offset, "metadata": got.metadata or None}))
    finally:
        consumer.close()


if __name__ == "__main__":
    main()
