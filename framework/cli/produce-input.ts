/**
 * Pure: turns `npm run produce` input into records. A JSON line may be a full record
 * `{"key": …, "value": …, "headers": {"name": "value"}, "partition": n}` or any other JSON
 * value, which becomes the record's value. Values that are not strings are sent as JSON.
 */
import type { OutgoingRecord } from '../kafka/producer-port.ts';
import { UsageError } from '../errors.ts';

const RECORD_KEYS = new Set(['key', 'value', 'headers', 'partition', 'timestamp']);

export function parseRecordLine(line: string, lineNumber: number): OutgoingRecord {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (e) {
    throw new UsageError(`line ${lineNumber}: not JSON (${(e as Error).message}). Give one JSON value or {"key","value","headers"} object per line.`);
  }
  const isRecord = isPlainObject(parsed) && 'value' in parsed && Object.keys(parsed).every((k) => RECORD_KEYS.has(k));
  if (!isRecord) return { value: asBytes(parsed) };
  const r = parsed as { key?: unknown; value: unknown; headers?: unknown; partition?: unknown; timestamp?: unknown };
  const headers = r.headers === undefined ? [] : Object.entries(r.headers as Record<string, unknown>).map(([k, v]): [string, string] => [k, String(v)]);
  return {
    key: r.key === undefined || r.key === null ? null : asBytes(r.key),
    value: r.value === null ? null : asBytes(r.value),
    headers,
    ...(typeof r.partition === 'number' ? { partition: r.partition } : {}),
    ...(typeof r.timestamp === 'number' ? { timestamp: r.timestamp } : {}),
  };
}

function asBytes(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
