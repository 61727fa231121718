"""Commits a group's offset of one partition with a metadata string through librdkafka, as another
client of the group would (it writes C's NUL terminator too). Input on stdin, one JSON object:
{"brokers", "groupId", "topic", "partition", "offset", "metadata"}. Prints {"offset": n}."""
import json
import sys

from confluent_kafka import Consumer, TopicPartition


def main() -> None:
    req = json.load(sys.stdin)
    consumer = Consumer({"bootstrap.servers": req["brokers"], "group.id": req["groupId"], "enable.auto.commit": False})
    try:
        tp = TopicPartition(req["topic"], req["partition"], req["offset"], metadata=req["metadata"])
        [done] = consumer.commit(offsets=[tp], asynchronous=False)
        print(json.dumps({"offset": done.offset}))
    finally:
        consumer.close()


if __name__ == "__main__":
    main()
