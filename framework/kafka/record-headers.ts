/**
 * A record's headers within Sluice's bounds, whichever engine decoded them (kafkajs's records.ts,
 * rdkafka/member.ts), and the records that travel on marked for the failure policy: without their
 * headers past those bounds, or standing for a batch that could not be read (README, "Bounds on
 * hostile input").
 */
import type { KafkaRecord } from '../event/record.ts';
import type { InputFailureReason } from '../failure/policy.ts';

export interface HeaderBounds {
  maxHeaders: number;
  maxHeaderBytes: number;
}

class OverLimit extends Error {}

/** The record marked unreadable for `reason`, without its headers. */
export function markUnreadable(record: KafkaRecord, reason: InputFailureReason, e: unknown): KafkaRecord {
  const detail = e instanceof OverLimit ? e.message : `the poller could not read it: ${(e as Error)?.message ?? String(e)}`;
  return { ...record, headers: [], unreadable: { reason, error: detail } };
}

/** The record standing for a record batch that could not be read (at the batch's last offset): no key, value or headers, the batch's offsets in its error. */
export function batchUnreadable(record: KafkaRecord, firstOffset: string | number, why: string): KafkaRecord {
  const error = `its record batch (offsets ${firstOffset}-${record.offset}) could not be read: ${why}`;
  return { ...record, key: null, value: null, headers: [], unreadable: { reason: 'BatchUnreadable', error } };
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
  return markUnreadable(record, 'HeadersOverLimit', new OverLimit(over));
}

/** A record whose headers could not be read: it travels on without them, marked for the failure policy. */
export function withoutHeaders(record: KafkaRecord, e: unknown): KafkaRecord {
  return markUnreadable(record, e instanceof OverLimit ? 'HeadersOverLimit' : 'RecordUnreadable', e);
}

function invalid(name: string): never {
  throw new Error(`header "${name}" has a value that is neither bytes nor null (is kafkajs patched? infra/patches/kafkajs.mjs)`);
}
