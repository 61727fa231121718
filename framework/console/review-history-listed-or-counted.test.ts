/** Review of 01af0fd (InvocationHistory.start/subscribe): every invocation ends listed or counted, and a page told one runs is told how it ended. */
import { expect, it } from 'vitest';
import type { KafkaRecord } from '../event/record.ts';
import { InvocationHistory } from './history.ts';

const record = (offset: number): KafkaRecord => ({ topic: 't', partition: 0, offset, timestamp: 0, timestampType: 'CREATE_TIME', key: Buffer.from(`k${offset}`), value: Buffer.from('v'), headers: [] });
const source = { bootstrapServers: 'b:9092' };

it('a page opening while more invocations of a function run quiet than its ring holds is told how each one it was told of ended, and each is listed or counted', () => {
  const h = new InvocationHistory({}, () => 5_000); // the defaults: a ring of 200
  const started = Array.from({ length: 260 }, (_, i) => h.start({ functionName: 'a', records: [record(i)], source, requestId: `r${i}` })); // no page: 10 listed, 250 quiet
  const told = new Map<string, string>();
  h.subscribe((e) => told.set(e.id, e.outcome)); // a page opens: those running quiet are listed
  for (const e of started) h.ended(e.requestId!, { ok: true, durationMs: 1 });
  // All 260 ended: each of the 250 that ran quiet was listed when the page opened and must show its end, or be counted.
  const stillRunningOnThePage = [...told.values()].filter((outcome) => outcome === 'running').length;
  const endNeverRecorded = started.filter((e) => e.outcome === 'running').length;
  expect({ stillRunningOnThePage, endNeverRecorded, counted: h.unlistedCounts().a ?? 0 }).toEqual({ stillRunningOnThePage: 0, endNeverRecorded: 0, counted: 0 });
});
