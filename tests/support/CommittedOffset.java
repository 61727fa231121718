// A group's commit of one partition with its metadata string, read exactly, through kafka-clients (the
// broker's own jars: neither kafkajs, Sluice nor librdkafka):
// `java -cp '<kafka libs>/*' CommittedOffset.java <brokers> <groupId> <topic> <partition>` prints
// {"offset": n, "metadata": "..." or null}, offset -1001 when the partition has no commit.
// (confluent-kafka-python strdup()s the metadata buffer librdkafka copies without a terminating NUL, so a
// string committed without one, as kafkajs does, can come back with bytes from beyond it appended.)
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

public class CommittedOffset {
  public static void main(String[] args) throws Exception {
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
    TopicPartition tp = new TopicPartition(args[2], Integer.parseInt(args[3]));
    try (Admin admin = Admin.create(props)) {
      Map<TopicPartition, OffsetAndMetadata> commits = admin.listConsumerGroupOffsets(args[1]).partitionsToOffsetAndMetadata().get();
      OffsetAndMetadata got = commits.get(tp);
      String metadata = got == null || got.metadata().isEmpty() ? null : got.metadata();
      System.out.println("{\"offset\": " + (got == null ? -1001 : got.offset()) + ", \"metadata\": " + (metadata == null ? "null" : quote(metadata)) + "}");
    }
  }

  private static String quote(String s) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') out.append('\\').append(c);
      else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
      else out.append(c);
    }
    return out.append('"').toString();
  }
}
