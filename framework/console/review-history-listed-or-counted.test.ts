/**
 * Review of 01af0fd (InvocationHistory.start/subscribe): every invocation ends listed, counted or
 * pushed out of its ring, and a page told one runs is told how it ended or that it is gone.
 */
import { expect, it } from 'vitest';
import type { KafkaRecord } from '../event/record.ts';
import { InvocationHistory } from './history.ts';

const record = (offset: number): KafkaRecord => ({ topic: 't', partition: 0, offset, timestamp: 0, timestampType: 'CREATE_TIME', key: Buffer.from(`k${offset}`), value: Buffer.from('v'), headers: [] });
const source = { bootstrapServers: 'b:9092' };

it('a page opening while more invocations of a function run quiet than its ring holds is told how each one it was told of ended, and each is listed or counted', () => {
  const h = new InvocationHistory({}, () => 5_000); // the defaults: a ring of 200
  const started = Array.from({ length: 260 }, (_, i) => h.start({ functionName: 'a', records: [record(i)], source, requestId: `r${i}` })); // no page: 10 listed, 250 quiet
  const told = new Map<string, { outcome: string; gone: boolean }>();
  h.subscribe((e) => told.set(e.id, { outcome: e.outcome, gone: e.gone === true })); // a page opens: the newest 200 running quiet are listed
  for (const e of started) h.ended(e.requestId!, { ok: true, durationMs: 1 });
  // Each the page was told of shows its end, or that it left the history while running (the 10 listed first, pushed out by the 200).
  expect([...told.values()].filter((t) => t.outcome === 'running' && !t.gone)).toEqual([]);
  expect([...told.values()].filter((t) => t.gone)).toHaveLength(10);
  const listed = h.list({ limit: 1_000 });
  expect(listed.map((e) => e.firstOffset)).toEqual(Array.from({ length: 200 }, (_, i) => 259 - i));
  expect(listed.every((e) => e.outcome === 'ok')).toBe(true);
  expect(h.unlistedCounts()).toEqual({ a: 50 }); // the older 50 that ran quiet: counted
  // Only the 10 pushed out of the ring while running have no end recorded: 200 + 50 + 10 = 260.
  expect(started.filter((e) => e.outcome === 'running')).toHaveLength(10);
});
