/**
 * Pure: the exact byte size of a record and of an event envelope once serialized as JSON,
 * computed without serializing (the chunker asks for every record). Matches
 * `JSON.stringify(buildEvent(...))` byte for byte; the unit tests hold it to that.
 */
import { buildEvent, type EventSource } from './build-event.ts';
import { partitionKey, type KafkaRecord, type SchemaMetadata } from './record.ts';

const FIXED = Buffer.byteLength('{"topic":,"partition":,"offset":,"timestamp":,"timestampType":"","key":,"value":,"headers":[]}');

/** Decimal digits of an integer, without making its string for the common case (the chunker asks for three per record). */
function digits(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) return String(n).length;
  let d = 1;
  for (let x = n; x >= 10; x = Math.floor(x / 10)) d++;
  return d;
}
const base64Bytes = (b: Buffer) => 4 * Math.ceil(b.length / 3);
const jsonStringBytes = (s: string) => Buffer.byteLength(JSON.stringify(s));

/** Topics and header names repeat on every record: their JSON sizes are worked out once each. */
const NAME_BYTES = new Map<string, number>();
const MAX_NAMES = 10_000;
function nameBytes(s: string): number {
  let n = NAME_BYTES.get(s);
  if (n === undefined) {
    n = jsonStringBytes(s);
    if (NAME_BYTES.size >= MAX_NAMES) NAME_BYTES.clear();
    NAME_BYTES.set(s, n);
  }
  return n;
}
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
  let n = FIXED + nameBytes(r.topic) + digits(r.partition) + digits(r.offset) + digits(r.timestamp) + r.timestampType.length;
  n += r.key === null ? 4 : base64Bytes(r.key) + 2;
  n += r.value === null ? 4 : base64Bytes(r.value) + 2;
  for (const [name, value] of r.headers) n += 3 + nameBytes(name) + bytesAsNumberArray(value); // {"name":[…]}
  if (r.keySchemaMetadata) n += KEY_METADATA + metadataBytes(r.keySchemaMetadata);
  if (r.valueSchemaMetadata) n += VALUE_METADATA + metadataBytes(r.valueSchemaMetadata);
  if (r.deliveryCount !== undefined) n += DELIVERY_COUNT + digits(r.deliveryCount);
  return n + Math.max(0, r.headers.length - 1);
}

const KEY_METADATA = Buffer.byteLength(',"keySchemaMetadata":{"dataFormat":,"schemaId":}');
const VALUE_METADATA = Buffer.byteLength(',"valueSchemaMetadata":{"dataFormat":,"schemaId":}');
const DELIVERY_COUNT = Buffer.byteLength(',"deliveryCount":');
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
