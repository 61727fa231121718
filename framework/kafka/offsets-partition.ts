/**
 * Which `__consumer_offsets` partition holds a group, computed as the broker does
 * (GroupCoordinator's partitionFor: `Utils.abs(groupId.hashCode()) % offsets.topic.num.partitions`).
 * The leader of that partition is the group's coordinator. Used by `sluice status` and the
 * fault tier's coordinator lookup.
 */

export const OFFSETS_TOPIC = '__consumer_offsets';

/** Java's `String.hashCode()`: 31-polynomial over UTF-16 code units, in 32-bit two's complement. */
export function javaStringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/** Kafka's `Utils.abs`: Math.abs, except Integer.MIN_VALUE maps to 0 (not to itself). */
export function kafkaAbs(n: number): number {
  return n === -2147483648 ? 0 : Math.abs(n);
}

/** The `__consumer_offsets` partition that holds `groupId`, of `offsetsPartitions`. */
export function offsetsPartitionFor(groupId: string, offsetsPartitions: number): number {
  return kafkaAbs(javaStringHash(groupId)) % offsetsPartitions;
}
