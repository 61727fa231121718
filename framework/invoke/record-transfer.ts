/**
 * Pure: a chunk's records packed for a worker thread as one transferable byte buffer plus a
 * numeric index, so handing 1,000 records to a worker moves two buffers instead of
 * structured-cloning 1,000 objects. The worker unpacks them and builds the AWS event itself
 * (with the same buildEvent), which also moves the base64 work off the poller's thread.
 */
import type { KafkaRecord, SchemaMetadata } from '../event/record.ts';

export interface PackedRecords {
  /** Per record: partition, offset, timestamp, timestampType (1 = LOG_APPEND_TIME), topic index, key length, value length, key and value schema metadata (string indexes), delivery count, header count; per header: name index, value length. -1 is null. */
  index: Float64Array;
  bytes: ArrayBuffer;
  /** Topics, header names and schema metadata (`<dataFormat> <schemaId>`), referenced from `index`. */
  strings: string[];
}

export function packRecords(records: readonly KafkaRecord[]): PackedRecords {
  const strings: string[] = [];
  const ids = new Map<string, number>();
  const id = (s: string) => ids.get(s) ?? (ids.set(s, strings.push(s) - 1), strings.length - 1);
  let slots = 0;
  let total = 0;
  for (const r of records) {
    slots += 11 + 2 * r.headers.length;
    total += (r.key?.length ?? 0) + (r.value?.length ?? 0);
    for (const [, v] of r.headers) total += v?.length ?? 0;
  }
  const index = new Float64Array(slots);
  const bytes = new ArrayBuffer(total);
  const view = new Uint8Array(bytes);
  let i = 0;
  let at = 0;
  const put = (b: Buffer | null) => {
    if (b === null) return -1;
    view.set(b, at);
    at += b.length;
    return b.length;
  };
  for (const r of records) {
    index[i++] = r.partition;
    index[i++] = r.offset;
    index[i++] = r.timestamp;
    index[i++] = r.timestampType === 'LOG_APPEND_TIME' ? 1 : 0;
    index[i++] = id(r.topic);
    index[i++] = put(r.key);
    index[i++] = put(r.value);
    index[i++] = r.keySchemaMetadata ? id(`${r.keySchemaMetadata.dataFormat} ${r.keySchemaMetadata.schemaId}`) : -1;
    index[i++] = r.valueSchemaMetadata ? id(`${r.valueSchemaMetadata.dataFormat} ${r.valueSchemaMetadata.schemaId}`) : -1;
    index[i++] = r.deliveryCount ?? -1;
    index[i++] = r.headers.length;
    for (const [name, value] of r.headers) {
      index[i++] = id(name);
      index[i++] = put(value);
    }
  }
  return { index, bytes, strings };
}

/** `limit`: the first records only (the console's summary keys): the rest are not built. */
export function unpackRecords({ index, bytes, strings }: PackedRecords, limit = Infinity): KafkaRecord[] {
  const buffer = Buffer.from(bytes);
  const records: KafkaRecord[] = [];
  let i = 0;
  let at = 0;
  const take = (length: number): Buffer | null => {
    if (length < 0) return null;
    const b = buffer.subarray(at, at + length);
    at += length;
    return b;
  };
  while (i < index.length && records.length < limit) {
    const partition = index[i++]!;
    const offset = index[i++]!;
    const timestamp = index[i++]!;
    const timestampType = index[i++] === 1 ? 'LOG_APPEND_TIME' : 'CREATE_TIME';
    const topic = strings[index[i++]!]!;
    const key = take(index[i++]!);
    const value = take(index[i++]!);
    const keyMetadata = metadata(strings, index[i++]!);
    const valueMetadata = metadata(strings, index[i++]!);
    const deliveryCount = index[i++]!;
    const count = index[i++]!;
    const headers: KafkaRecord['headers'] = [];
    for (let h = 0; h < count; h++) {
      const name = strings[index[i++]!]!;
      headers.push([name, take(index[i++]!)]);
    }
    const record: KafkaRecord = { topic, partition, offset, timestamp, timestampType, key, value, headers };
    if (keyMetadata) record.keySchemaMetadata = keyMetadata;
    if (valueMetadata) record.valueSchemaMetadata = valueMetadata;
    if (deliveryCount >= 0) record.deliveryCount = deliveryCount;
    records.push(record);
  }
  return records;
}

function metadata(strings: string[], at: number): SchemaMetadata | undefined {
  if (at < 0) return undefined;
  const text = strings[at]!;
  const space = text.indexOf(' ');
  return { dataFormat: text.slice(0, space) as SchemaMetadata['dataFormat'], schemaId: text.slice(space + 1) };
}
