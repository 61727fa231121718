/**
 * Pure: how `tail` shows a record. Text that is UTF-8 is shown as it is (JSON on one line),
 * anything else as base64; a record an on-failure destination holds shows where it came from and
 * why it failed as fields, not as raw headers.
 */
import { readFailedCopy } from '../failure/redrive.ts';
import type { KafkaRecord } from '../event/record.ts';

export function bytesText(b: Buffer | null | undefined): string | null {
  if (b === null || b === undefined) return null;
  const text = b.toString('utf8');
  return Buffer.from(text, 'utf8').equals(b) && !/[\u0000-\u0008\u000e-\u001f]/.test(text) ? text : `base64:${b.toString('base64')}`;
}

export function recordJson(r: KafkaRecord): Record<string, unknown> {
  const copy = readFailedCopy(r);
  const headers = typeof copy === 'string' ? r.headers : copy.original.headers;
  return {
    topic: r.topic, partition: r.partition, offset: r.offset, timestamp: new Date(r.timestamp).toISOString(),
    key: bytesText(r.key),
    value: bytesText(r.value),
    headers: headers.map(([n, v]) => [n, bytesText(v)]),
    ...(typeof copy === 'string' ? {} : {
      failure: { reason: copy.reason, attempts: copy.attempts, ...(copy.error !== undefined ? { error: copy.error } : {}), ...(copy.failedAt ? { at: copy.failedAt } : {}), source: copy.source },
    }),
  };
}

export function recordText(r: KafkaRecord): string {
  const j = recordJson(r) as { key: string | null; value: string | null; headers: Array<[string, string | null]>; failure?: { reason: string; attempts: number; error?: string; source: { topic: string; partition: number; offset: number } } };
  const lines = [`${r.topic}-${r.partition}@${r.offset}  ${new Date(r.timestamp).toISOString()}${j.key !== null ? `  key=${j.key}` : ''}  ${j.value ?? '(null)'}`];
  if (j.failure) {
    const f = j.failure;
    lines.push(`    failed: ${f.reason} after ${f.attempts} attempt${f.attempts === 1 ? '' : 's'}, from ${f.source.topic}-${f.source.partition}@${f.source.offset}${f.error !== undefined ? `: ${f.error.split('\n')[0]}` : ''}`);
  }
  if (j.headers.length) lines.push(`    headers: ${j.headers.map(([n, v]) => `${n}=${v ?? ''}`).join(' ')}`);
  return lines.join('\n');
}
