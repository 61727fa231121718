"""A consumer group as librdkafka's admin client describes it (DescribeGroups, FindCoordinator),
independent of kafkajs: `python describe_group.py <brokers> <groupId>` prints one JSON object."""
import json
import sys

from confluent_kafka.admin import AdminClient


def main() -> None:
    brokers, group_id = sys.argv[1], sys.argv[2]
    admin = AdminClient({"bootstrap.servers": brokers})
    g = admin.describe_consumer_groups([group_id])[group_id].result(timeout=30)
    offsets_topic = admin.list_topics(topic="__consumer_offsets", timeout=30).topics["__consumer_offsets"]
    print(json.dumps({
        "state": g.state.name,
        "assignor": g.partition_assignor,
        "coordinator": {"id": g.coordinator.id, "host": g.coordinator.host, "port": g.coordinator.port},
        "offsetsPartitions": len(offsets_topic.partitions),
        "members": [
            {
                "memberId": m.member_id,
                "clientId": m.client_id,
                "host": m.host,
                "partitions": sorted([tp.topic, tp.partition] for tp in m.assignment.topic_partitions),
            }
            for m in g.members
        ],
    }))


if __name__ == "__main__":
    main()
