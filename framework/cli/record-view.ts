/**
 * Pure: how `tail` shows a record. Text that is UTF-8 is shown as it is (JSON on one line),
 * anything else as base64; a record an on-failure destination holds shows where it came from and
 * why it failed as fields, not as raw headers. Everything the record chose (key, value, header
 * names and values, failure reason, error, source topic) is printed through printable(): a
 * record's block is its own lines and no character of the record can add, erase or rewrite one
 * (a newline in a value shows as `\n`; of a failure's error, its first line). `--json` lines are
 * the exact text, with JSON's escapes (printableJson).
 */
import { readFailedCopy } from '../failure/redrive.ts';
import type { KafkaRecord } from '../event/record.ts';
import { printable, printableJson } from '../observe/printable.ts';

export function bytesText(b: Buffer | null | undefined): string | null {
  if (b === null || b === undefined) return null;
  const text = b.toString('utf8');
  return Buffer.from(text, 'utf8').equals(b) && !/[\u0000-\u0008\u000e-\u001f]/.test(text) ? text : `base64:${b.toString('base64')}`;
}

export function recordJson(r: KafkaRecord): Record<string, unknown> {
  const copy = readFailedCopy(r);
  // A reduced copy holds only Sluice's headers: no own headers to show.
  const headers = typeof copy === 'string' ? r.headers : 'reduced' in copy ? [] : copy.original.headers;
  return {
    topic: r.topic, partition: r.partition, offset: r.offset, timestamp: new Date(r.timestamp).toISOString(),
    key: bytesText(r.key),
    value: bytesText(r.value),
    headers: headers.map(([n, v]) => [n, bytesText(v)]),
    ...(typeof copy === 'string' ? {} : {
      failure: {
        reason: copy.reason, attempts: copy.attempts, ...(copy.error !== undefined ? { error: copy.error } : {}), ...(copy.failedAt ? { at: copy.failedAt } : {}), source: copy.source,
        ...('reduced' in copy ? { reduced: copy.reduced } : {}),
      },
    }),
  };
}

/** One `tail --json` line. */
export function recordJsonText(r: KafkaRecord): string {
  return printableJson(JSON.stringify(recordJson(r)));
}

export function recordText(r: KafkaRecord): string {
  const j = recordJson(r) as { key: string | null; value: string | null; headers: Array<[string, string | null]>; failure?: { reason: string; attempts: number; error?: string; reduced?: string; source: { topic: string; partition: number; offset: number } } };
  const p = printable;
  const lines = [`${p(r.topic)}-${r.partition}@${r.offset}  ${new Date(r.timestamp).toISOString()}${j.key !== null ? `  key=${p(j.key)}` : ''}  ${j.value === null ? '(null)' : p(j.value)}`];
  if (j.failure) {
    const f = j.failure;
    lines.push(`    failed: ${p(f.reason)} after ${f.attempts} attempt${f.attempts === 1 ? '' : 's'}, from ${p(f.source.topic)}-${f.source.partition}@${f.source.offset}${f.error !== undefined ? `: ${p(f.error.split('\n')[0]!)}` : ''}`);
    if (f.reduced !== undefined) lines.push(`    reduced copy, no record: ${p(f.reduced)}`);
  }
  if (j.headers.length) lines.push(`    headers: ${j.headers.map(([n, v]) => `${p(n)}=${p(v ?? '')}`).join(' ')}`);
  return lines.join('\n');
}
