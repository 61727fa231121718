/**
 * Pure: the registry frames a serializer puts around a record's key or value.
 *
 * - Confluent (and every Confluent-compatible registry): magic byte 0, the schema id as a
 *   big-endian int32, then the payload. A Protobuf payload starts with its message indexes:
 *   a zigzag varint count and that many zigzag varints (the path of the message type in the
 *   .proto file), where the single byte 0 stands for [0], the first message.
 * - AWS Glue: header version byte 3, a compression byte (0 none, 5 zlib), the schema version
 *   UUID in 16 bytes, then the payload.
 *
 * A frame that is not what the registry writes is a DESERIALIZATION_ERROR: the bytes say
 * nothing about any schema.
 */
export type RegistryKind = 'confluent' | 'glue';

export interface Frame {
  /** Confluent: the numeric id as decimal text; Glue: the schema version UUID. As AWS's `schemaId`. */
  schemaId: string;
  /** Bytes after the header (for Glue, compressed when `compressed`). */
  payload: Buffer;
  /** Glue only: the payload is zlib-compressed. */
  compressed: boolean;
}

export class FrameError extends Error {
  override readonly name = 'FrameError';
}

const CONFLUENT_MAGIC = 0;
const GLUE_HEADER_VERSION = 3;
const GLUE_COMPRESSION = { none: 0, zlib: 5 } as const;
const GLUE_HEADER_BYTES = 18;

export function readFrame(kind: RegistryKind, bytes: Buffer): Frame {
  return kind === 'confluent' ? readConfluent(bytes) : readGlue(bytes);
}

function readConfluent(bytes: Buffer): Frame {
  if (bytes.length < 5) throw new FrameError(`${bytes.length} bytes are too short for the Confluent wire format (magic byte 0 and a 4-byte schema id)`);
  if (bytes[0] !== CONFLUENT_MAGIC) throw new FrameError(`the first byte is ${bytes[0]}, not the Confluent wire format's magic byte 0: the record was not written by a schema-registry serializer`);
  return { schemaId: String(bytes.readInt32BE(1)), payload: bytes.subarray(5), compressed: false };
}

function readGlue(bytes: Buffer): Frame {
  if (bytes.length < GLUE_HEADER_BYTES) throw new FrameError(`${bytes.length} bytes are too short for the Glue wire format (an 18-byte header)`);
  if (bytes[0] !== GLUE_HEADER_VERSION) throw new FrameError(`the first byte is ${bytes[0]}, not the Glue wire format's header version 3: the record was not written by a Glue schema-registry serializer`);
  const compression = bytes[1];
  if (compression !== GLUE_COMPRESSION.none && compression !== GLUE_COMPRESSION.zlib) throw new FrameError(`compression byte ${compression} is neither 0 (none) nor 5 (zlib)`);
  return { schemaId: uuidText(bytes.subarray(2, GLUE_HEADER_BYTES)), payload: bytes.subarray(GLUE_HEADER_BYTES), compressed: compression === GLUE_COMPRESSION.zlib };
}

function uuidText(b: Buffer): string {
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** A Confluent Protobuf payload split into its message indexes and the message bytes. */
export function readMessageIndexes(payload: Buffer): { indexes: number[]; message: Buffer } {
  let at = 0;
  const next = (): number => {
    const { value, size } = readVarint(payload, at);
    at += size;
    return (value >>> 1) ^ -(value & 1); // zigzag
  };
  const count = next();
  if (count === 0) return { indexes: [0], message: payload.subarray(at) };
  if (count < 0 || count > payload.length) throw new FrameError(`message index count ${count} does not fit the ${payload.length}-byte payload`);
  const indexes: number[] = [];
  for (let i = 0; i < count; i++) {
    const index = next();
    if (index < 0) throw new FrameError(`message index ${index} is negative`);
    indexes.push(index);
  }
  return { indexes, message: payload.subarray(at) };
}

/** The message indexes a Confluent Protobuf serializer writes before the message: [0] as the single byte 0. */
export function writeMessageIndexes(indexes: number[]): Buffer {
  if (indexes.length === 1 && indexes[0] === 0) return Buffer.from([0]);
  const bytes: number[] = [];
  const varint = (n: number) => {
    let v = ((n << 1) ^ (n >> 31)) >>> 0; // zigzag
    while (v > 0x7f) {
      bytes.push((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    bytes.push(v);
  };
  varint(indexes.length);
  for (const i of indexes) varint(i);
  return Buffer.from(bytes);
}

/** Magic byte 0 and the schema id, before the payload: the Confluent wire format. */
export function confluentFrame(schemaId: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.writeInt32BE(schemaId, 1);
  return Buffer.concat([header, payload]);
}

/** An unsigned varint of at most 32 bits at `at`. */
function readVarint(b: Buffer, at: number): { value: number; size: number } {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    if (at + i >= b.length) throw new FrameError('the message indexes end inside a varint');
    const byte = b[at + i]!;
    value |= (byte & 0x7f) << (7 * i);
    if ((byte & 0x80) === 0) return { value: value >>> 0, size: i + 1 };
  }
  throw new FrameError('a message index varint is longer than 5 bytes');
}
