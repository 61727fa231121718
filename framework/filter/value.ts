import { isUtf8 } from 'node:buffer';
import { INPUT_BOUNDS } from '../config/input-bounds.ts';
import { parseJson, type JsonValue } from './json.ts';

/**
 * A record's value as Lambda's Kafka filtering sees it ("Filtering events from Amazon MSK and
 * self-managed Apache Kafka event sources"): "Lambda decodes Kafka byte arrays into UTF-8 before
 * applying filter criteria"; the message is then either valid JSON or a plain string.
 *
 * - `absent`: a null value (tombstone). AWS does not document this case; the value field is
 *   treated as missing, so only `exists: false` can match it.
 * - `binary`: not valid UTF-8 ("Non-UTF-8 encoded string" in AWS's table).
 * - `json`: a JSON object or array. A bare JSON scalar (`42`, `true`, `"x"`) counts as a plain
 *   string: AWS does not say which it is, and plain-string rules are the only ones that can
 *   say anything about such a message.
 * - `string`: any other UTF-8 text, the empty string included.
 */
export type RecordValue =
  | { kind: 'absent' }
  | { kind: 'binary' }
  | { kind: 'json'; json: JsonValue }
  | { kind: 'string'; text: string };

const ABSENT: RecordValue = { kind: 'absent' };
const BINARY: RecordValue = { kind: 'binary' };

export interface FilterBounds {
  maxFilterJsonDepth: number;
  maxFilterValueBytes: number;
}

/**
 * A value past maxFilterValueBytes, refused from its length before it is read: past Lambda's payload
 * and costly to parse, so whether it matches is not decided (the record's FilterFailed, like JsonTooDeep).
 */
export class FilterValueTooLarge extends Error {
  override readonly name = 'FilterValueTooLarge';
}

/** Throws FilterValueTooLarge for a value past the filter's byte bound, JsonTooDeep for JSON nested past its depth bound. */
export function decodeValue(bytes: Buffer | null, bounds: FilterBounds = INPUT_BOUNDS): RecordValue {
  if (bytes === null) return ABSENT;
  if (bytes.length > bounds.maxFilterValueBytes) {
    throw new FilterValueTooLarge(`the value is ${bytes.length} bytes, more than ${bounds.maxFilterValueBytes} (the bound maxFilterValueBytes)`);
  }
  if (!isUtf8(bytes)) return BINARY;
  const text = bytes.toString('utf8');
  if (looksStructured(text)) {
    const json = parseJson(text, bounds.maxFilterJsonDepth);
    if (json !== undefined) return { kind: 'json', json };
  }
  return { kind: 'string', text };
}

/** The first non-blank character opens an object or an array. */
function looksStructured(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    return c === 0x7b || c === 0x5b;
  }
  return false;
}
