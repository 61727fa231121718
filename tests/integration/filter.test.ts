/**
 * filterPatterns with AWS's event-filtering syntax: records that match no pattern are
 * committed without an invocation; the rest are invoked as usual.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';

describe('filterPatterns', () => {
  const topic = uniqueName('filter');
  let h: Harness | undefined;
  afterAll(async () => {
    await h?.stop();
    await deleteTopic(topic);
  });

  it('invokes only matching records and commits past the others', async () => {
    await createTopic(topic, 1);
    const values = Array.from({ length: 12 }, (_, i) => JSON.stringify({ kind: i % 3 === 0 ? 'keep' : 'drop', amount: i }));
    await produce(topic, values.map((value) => ({ value })));
    h = await startRecorder({ topic, batchSize: 100, filterPatterns: [{ value: { kind: ['keep'] } }, { value: { amount: [{ numeric: ['>', 10] }] } }] });
    let filtered = 0;
    h.events.on('poller.filtered', (e) => (filtered += e.count));
    await waitFor('committed', async () => (await offsets(h!.trigger.consumerGroupId, topic))[0]!.committed === 12, 60_000);
    const invoked = h.seen().flatMap(recordsOf).map((r) => r.offset);
    console.log(`[filter] invoked offsets ${invoked.join(',')}; ${filtered} filtered out`);
    expect(invoked).toEqual([0, 3, 6, 9, 11]);
  });
});
