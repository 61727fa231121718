/**
 * kafkajs's messages -> Sluice's records. Never throws: a message that cannot be read as a
 * record (its batch was unreadable, its headers are over the bounds, or this code failed on it)
 * becomes a record marked `unreadable`, which the poller sends through the failure policy while
 * the rest of the batch goes on (README, "Bounds on hostile input").
 */
import type { KafkaMessage } from 'kafkajs';
import { INPUT_BOUNDS } from '../../config/input-bounds.ts';
import type { KafkaRecord } from '../../event/record.ts';
import { batchUnreadable, headersOverBound, markUnreadable, readHeaderPairs, withoutHeaders, type HeaderBounds } from '../record-headers.ts';

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

const LOG_APPEND_TIME = 1;

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
    return markUnreadable({ topic, partition, offset: Number(String(m.offset)), timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: null, headers: [] }, 'RecordUnreadable', e);
  }
  if (m.unreadable) return batchUnreadable(base, m.unreadable.firstOffset, m.unreadable.error);
  if (m.headersOverBound) return headersOverBound(base, m.headersOverBound, bounds);
  try {
    base.headers = readHeaders(m.headers, bounds);
    return base;
  } catch (e) {
    // The record travels on without its headers: they are what could not be read.
    return withoutHeaders(base, e);
  }
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
