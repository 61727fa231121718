import { describe, expect, it } from 'vitest';
import { javaStringHash, kafkaAbs, offsetsPartitionFor } from './offsets-partition.ts';

describe("the group's __consumer_offsets partition", () => {
  it("hashes as Java's String.hashCode does", () => {
    // Values from the JVM: "".hashCode() = 0, "a" = 97, "hello" = 99162322, "polygenelubricants" = Integer.MIN_VALUE.
    expect(javaStringHash('')).toBe(0);
    expect(javaStringHash('a')).toBe(97);
    expect(javaStringHash('hello')).toBe(99162322);
    expect(javaStringHash('sluice-shop-orders')).toBe(27632798);
    expect(javaStringHash('group-mx4lc9sf-b87cbf')).toBe(-298583591); // overflows: negative, as on the JVM (jshell)
    expect(javaStringHash('polygenelubricants')).toBe(-2147483648);
    expect(javaStringHash('é')).toBe(233);
  });

  it("maps Integer.MIN_VALUE to 0, as Kafka's Utils.abs does", () => {
    expect(kafkaAbs(-2147483648)).toBe(0);
    expect(kafkaAbs(-5)).toBe(5);
    expect(offsetsPartitionFor('polygenelubricants', 50)).toBe(0);
    expect(offsetsPartitionFor('hello', 50)).toBe(22);
    expect(offsetsPartitionFor('group-mx4lc9sf-b87cbf', 12)).toBe(298583591 % 12);
  });
});
