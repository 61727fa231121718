// The broker's own computation of a group's __consumer_offsets partition, on the JVM with
// kafka-clients' Utils.abs: `java -cp 'infra/kafka/lib/*' OffsetsPartition.java <partitions> <groupId>...`
// prints one partition per group id, one per line.
import org.apache.kafka.common.utils.Utils;

public class OffsetsPartition {
  public static void main(String[] args) {
    int partitions = Integer.parseInt(args[0]);
    for (int i = 1; i < args.length; i++) System.out.println(Utils.abs(args[i].hashCode()) % partitions);
  }
}
