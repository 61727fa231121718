/**
 * Pure: reads a handler's partial batch response (`functionResponseType:
 * ReportBatchItemFailures`) for one chunk, as AWS documents it for Kafka:
 * `{ batchItemFailures: [ { itemIdentifier: { partition: "<topic>-<partition>", offset } } ] }`.
 * Records before the lowest failed offset are done; it and all after it are retried.
 * Anything malformed fails the whole chunk, with the reason.
 */
import { partitionKey, type KafkaRecord } from './record.ts';

export type BatchResponseReading =
  /** `failedFrom` undefined: every record succeeded. `failed`: the offsets named (queue mode releases exactly these). */
  | { ok: true; failedFrom: number | undefined; failed: number[] }
  | { ok: false; reason: string };

export function readBatchResponse(payload: unknown, chunk: readonly KafkaRecord[]): BatchResponseReading {
  try {
    return read(payload, chunk);
  } catch (e) {
    // Reading the answer threw (a getter of its, a revoked Proxy): only an invoker other than Lambda's can answer so.
    return malformed(`reading it threw ${thrown(e)}`);
  }
}

function read(payload: unknown, chunk: readonly KafkaRecord[]): BatchResponseReading {
  if (payload === null || payload === undefined) return { ok: true, failedFrom: undefined, failed: [] };
  if (typeof payload !== 'object' || Array.isArray(payload)) return malformed(`the response is ${describe(payload)}, not an object`);
  const failures = (payload as Record<string, unknown>).batchItemFailures;
  if (failures === undefined || failures === null) return { ok: true, failedFrom: undefined, failed: [] };
  if (!Array.isArray(failures)) return malformed(`batchItemFailures is ${describe(failures)}, not an array`);

  const first = chunk[0]!;
  const key = partitionKey(first.topic, first.partition);
  const offsets = new Set(chunk.map((r) => r.offset));
  let lowest: number | undefined;
  const failed = new Set<number>();
  for (const [i, entry] of failures.entries()) {
    const id = (entry as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    if (typeof id !== 'object' || id === null) return malformed(`batchItemFailures[${i}].itemIdentifier is ${describe(id)}, not { partition, offset }`);
    const { partition, offset } = id as { partition?: unknown; offset?: unknown };
    if (partition !== key) return malformed(`batchItemFailures[${i}].itemIdentifier.partition is ${describe(partition)}; this invocation held "${key}"`);
    const n = typeof offset === 'number' ? offset : typeof offset === 'string' && /^\d+$/.test(offset) ? Number(offset) : NaN;
    if (!offsets.has(n)) return malformed(`batchItemFailures[${i}].itemIdentifier.offset is ${describe(offset)}, not an offset of this invocation (${first.offset}–${chunk[chunk.length - 1]!.offset})`);
    lowest = lowest === undefined ? n : Math.min(lowest, n);
    failed.add(n);
  }
  return { ok: true, failedFrom: lowest, failed: [...failed].sort((a, b) => a - b) };
}

function malformed(reason: string): BatchResponseReading {
  return { ok: false, reason: `malformed partial batch response: ${reason}` };
}

/** A part of the answer, short, for the reason: never throws (an invoker other than Lambda's may answer with what JSON cannot encode). */
function describe(v: unknown): string {
  if (v === undefined) return 'missing';
  if (typeof v === 'bigint') return `${v}n (a BigInt, which JSON cannot carry)`;
  let s: string | undefined;
  try {
    s = JSON.stringify(v);
  } catch {
    return 'a value JSON cannot encode (a cycle, or a BigInt within it)';
  }
  if (s !== undefined) return s.length > 60 ? `${s.slice(0, 57)}...` : s;
  try {
    return String(v);
  } catch {
    return 'a value with no string form';
  }
}

/** What reading the answer threw, as text, never throwing itself. */
function thrown(e: unknown): string {
  try {
    return e instanceof Error ? `${e.name}: ${e.message}` : describe(e);
  } catch {
    return 'a value that cannot be read';
  }
}
