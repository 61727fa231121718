/**
 * kafkajs's messages -> Sluice's records. Never throws: a message that cannot be read as a
 * record (its batch was unreadable, its headers are over the bounds, or this code failed on it)
 * becomes a record marked `unreadable`, which the poller sends through the failure policy while
 * the rest of the batch goes on (README, "Bounds on hostile input").
 */
import type { KafkaMessage } from 'kafkajs';
import { INPUT_BOUNDS } from '../config/input-bounds.ts';
import type { KafkaRecord } from '../event/record.ts';
import type { InputFailureReason } from '../failure/policy.ts';

/**
 * kafkajs keeps the record batch's attributes on each message; its typings omit them. Sluice's
 * patch of kafkajs (infra/patches/kafkajs.mjs) marks the placeholder of a batch it could not read.
 */
type PatchedMessage = KafkaMessage & {
  batchContext?: { timestampType?: number };
  unreadable?: { firstOffset: string; error: string };
  /** Headers past the bounds, counted by the patched decoder and never built. */
  headersOverBound?: { count: number; bytes: number };
};

export interface HeaderBounds {
  maxHeaders: number;
  maxHeaderBytes: number;
}

const LOG_APPEND_TIME = 1;

class OverLimit extends Error {}

export function toKafkaRecord(topic: string, partition: number, message: KafkaMessage, bounds: HeaderBounds = INPUT_BOUNDS): KafkaRecord {
  const m = message as PatchedMessage;
  let base: KafkaRecord;
  try {
    base = {
      topic,
      partition,
      offset: Number(m.offset),
      timestamp: Number(m.timestamp),
      timestampType: m.batchContext?.timestampType === LOG_APPEND_TIME ? 'LOG_APPEND_TIME' : 'CREATE_TIME',
      key: m.key ?? null,
      value: m.value ?? null,
      headers: [],
    };
  } catch (e) {
    return unreadable({ topic, partition, offset: Number(String(m.offset)), timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: null, headers: [] }, 'RecordUnreadable', e);
  }
  if (m.unreadable) {
    const error = `its record batch (offsets ${m.unreadable.firstOffset}-${base.offset}) could not be read: ${m.unreadable.error}`;
    return { ...base, key: null, value: null, unreadable: { reason: 'BatchUnreadable', error } };
  }
  if (m.headersOverBound) return headersOverBound(base, m.headersOverBound, bounds);
  try {
    base.headers = readHeaders(m.headers, bounds);
    return base;
  } catch (e) {
    // The record travels on without its headers: they are what could not be read.
    return unreadable(base, e instanceof OverLimit ? 'HeadersOverLimit' : 'RecordUnreadable', e);
  }
}

function unreadable(record: KafkaRecord, reason: InputFailureReason, e: unknown): KafkaRecord {
  const detail = e instanceof OverLimit ? e.message : `the poller could not read it: ${(e as Error)?.message ?? String(e)}`;
  return { ...record, headers: [], unreadable: { reason, error: detail } };
}

/** In wire order per name; kafkajs folds repeated header names into an array, unfolded here to one entry each. */
function readHeaders(headers: KafkaMessage['headers'], bounds: HeaderBounds): KafkaRecord['headers'] {
  if (!headers) return [];
  return readHeaderPairs(
    Object.keys(headers).flatMap((name) => {
      const value = headers[name];
      return (Array.isArray(value) ? value : [value]).map((v): [string, unknown] => [name, v]);
    }),
    bounds,
  );
}

/** Header name and value pairs as a record carries them, within the bounds (OverLimit past them). */
export function readHeaderPairs(pairs: Iterable<[string, unknown]>, bounds: HeaderBounds): KafkaRecord['headers'] {
  const out: KafkaRecord['headers'] = [];
  let bytes = 0;
  for (const [name, v] of pairs) {
    const buffer = v === undefined || v === null ? null : Buffer.isBuffer(v) ? v : typeof v === 'string' ? Buffer.from(v) : invalid(name);
    bytes += Buffer.byteLength(name) + (buffer?.length ?? 0);
    out.push([name, buffer]);
    if (out.length > bounds.maxHeaders) throw new OverLimit(`it has more than ${bounds.maxHeaders} headers (the bound maxHeaders)`);
    if (bytes > bounds.maxHeaderBytes) throw new OverLimit(`its headers exceed ${bounds.maxHeaderBytes} bytes (the bound maxHeaderBytes)`);
  }
  return out;
}

/** A record whose headers were counted past the bounds before any was built (the kafkajs patch, the librdkafka binding's): it travels on without them. */
export function headersOverBound(record: KafkaRecord, { count, bytes }: { count: number; bytes: number }, bounds: HeaderBounds): KafkaRecord {
  const over = count > bounds.maxHeaders ? `it has ${count} headers, more than ${bounds.maxHeaders} (the bound maxHeaders)` : `its headers take ${bytes} bytes, more than ${bounds.maxHeaderBytes} (the bound maxHeaderBytes)`;
  return unreadable(record, 'HeadersOverLimit', new OverLimit(over));
}

/** A record whose headers could not be read: it travels on without them, marked for the failure policy. */
export function withoutHeaders(record: KafkaRecord, e: unknown): KafkaRecord {
  return unreadable(record, e instanceof OverLimit ? 'HeadersOverLimit' : 'RecordUnreadable', e);
}

function invalid(name: string): never {
  throw new Error(`header "${name}" has a value that is neither bytes nor null (is kafkajs patched? infra/patches/kafkajs.mjs)`);
}
