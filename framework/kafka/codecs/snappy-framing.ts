/**
 * Pure: Kafka's snappy payloads. Java producers write snappy-java's "xerial" stream (an 8-byte
 * magic, two version words, then blocks each prefixed by its big-endian length); librdkafka
 * and others may write one raw snappy block. Readers must take both, as snappy-java does.
 */
const MAGIC = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00]); // \x82SNAPPY\0
const HEADER_BYTES = MAGIC.length + 8;
/** snappy-java's default block size. */
export const XERIAL_BLOCK_BYTES = 32 * 1024;

export type BlockCodec = (block: Buffer) => Buffer;

export function isXerial(payload: Buffer): boolean {
  return payload.length >= HEADER_BYTES && payload.subarray(0, MAGIC.length).equals(MAGIC);
}

export function decodeSnappyPayload(payload: Buffer, uncompressBlock: BlockCodec): Buffer {
  if (!isXerial(payload)) return uncompressBlock(payload);
  const blocks: Buffer[] = [];
  let at = HEADER_BYTES;
  while (at < payload.length) {
    if (at + 4 > payload.length) throw new Error(`snappy (xerial) payload cut short: a block length at byte ${at} of ${payload.length}`);
    const length = payload.readUInt32BE(at);
    at += 4;
    if (at + length > payload.length) throw new Error(`snappy (xerial) payload cut short: a ${length}-byte block at byte ${at} of ${payload.length}`);
    blocks.push(uncompressBlock(payload.subarray(at, at + length)));
    at += length;
  }
  return blocks.length === 1 ? blocks[0]! : Buffer.concat(blocks);
}

/** Writes the xerial stream, as the Java client does, so every consumer can read it. */
export function encodeSnappyPayload(data: Buffer, compressBlock: BlockCodec): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header.writeInt32BE(1, MAGIC.length); // version
  header.writeInt32BE(1, MAGIC.length + 4); // oldest compatible version
  const parts: Buffer[] = [header];
  for (let at = 0; at < data.length; at += XERIAL_BLOCK_BYTES) {
    const block = compressBlock(data.subarray(at, at + XERIAL_BLOCK_BYTES));
    const length = Buffer.alloc(4);
    length.writeUInt32BE(block.length, 0);
    parts.push(length, block);
  }
  return Buffer.concat(parts);
}
