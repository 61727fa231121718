/**
 * Pure: the exact byte size of a record and of an event envelope once serialized as JSON,
 * computed without serializing (the chunker asks for every record). Matches
 * `JSON.stringify(buildEvent(...))` byte for byte; the unit tests hold it to that.
 */
import { buildEvent, type EventSource } from './build-event.ts';
import { partitionKey, type KafkaRecord, type SchemaMetadata } from './record.ts';

const FIXED = Buffer.byteLength('{"topic":,"partition":,"offset":,"timestamp":,"timestampType":"","key":,"value":,"headers":[]}');

const digits = (n: number) => String(n).length;
const base64Bytes = (b: Buffer) => 4 * Math.ceil(b.length / 3);
const jsonStringBytes = (s: string) => Buffer.byteLength(JSON.stringify(s));
const BYTE_DIGITS = Array.from({ length: 256 }, (_, b) => digits(b));

function bytesAsNumberArray(b: Buffer | null): number {
  // `[1,2,3]`: the brackets, each byte's digits, a comma between bytes.
  if (b === null || b.length === 0) return 2;
  let n = 2 + b.length - 1;
  for (const byte of b) n += BYTE_DIGITS[byte]!;
  return n;
}

/** Bytes of one record in the event's JSON. */
export function eventRecordBytes(r: KafkaRecord): number {
  let n = FIXED + jsonStringBytes(r.topic) + digits(r.partition) + digits(r.offset) + digits(r.timestamp) + r.timestampType.length;
  n += r.key === null ? 4 : base64Bytes(r.key) + 2;
  n += r.value === null ? 4 : base64Bytes(r.value) + 2;
  for (const [name, value] of r.headers) n += 3 + jsonStringBytes(name) + bytesAsNumberArray(value); // {"name":[…]}
  if (r.keySchemaMetadata) n += KEY_METADATA + metadataBytes(r.keySchemaMetadata);
  if (r.valueSchemaMetadata) n += VALUE_METADATA + metadataBytes(r.valueSchemaMetadata);
  return n + Math.max(0, r.headers.length - 1);
}

const KEY_METADATA = Buffer.byteLength(',"keySchemaMetadata":{"dataFormat":,"schemaId":}');
const VALUE_METADATA = Buffer.byteLength(',"valueSchemaMetadata":{"dataFormat":,"schemaId":}');
const metadataBytes = (m: SchemaMetadata) => jsonStringBytes(m.dataFormat) + jsonStringBytes(m.schemaId);

/** Bytes of an event for one partition with no records: what every chunk of it carries. */
export function envelopeBytes(source: EventSource, topic: string, partition: number): number {
  const empty = JSON.stringify(buildEvent([], source));
  // `"records":{}` becomes `"records":{"<topic>-<partition>":[]}`.
  return Buffer.byteLength(empty) + jsonStringBytes(partitionKey(topic, partition)) + 3;
}

/** Bytes of a one-partition event holding records whose sizes add up to `recordBytes`. */
export function eventBytes(envelope: number, recordBytes: number, count: number): number {
  return envelope + recordBytes + Math.max(0, count - 1);
}
