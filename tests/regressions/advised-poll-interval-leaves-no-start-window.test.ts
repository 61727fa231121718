/**
 * The advised maxPollIntervalMs stalled the poller: for a 60 s function the start-up check
 * advised 66667 ms, which left a window of 0 ms after a fetch in which a chunk could start. Every
 * fetch was already too old by the time its records were decoded, so the member went back to the
 * group and fetched them again, every 0.5 s, until a fetch landed in the same millisecond.
 */
import { afterAll, expect, it } from 'vitest';
import { minPollIntervalFor } from '../../framework/chunking/budget.ts';
import { recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';

const topic = uniqueName('advised-interval');
let h: Harness | undefined;
afterAll(async () => {
  await h?.stop();
  await deleteTopic(topic);
});

it('with the maxPollIntervalMs the start-up check advises, waiting records are invoked from the first fetch', async () => {
  const timeoutMs = 60_000;
  const maxPollIntervalMs = minPollIntervalFor(timeoutMs);
  await createTopic(topic, 1);
  await produce(topic, Array.from({ length: 3 }, (_, i) => ({ value: `v${i}` })));
  const started = Date.now();
  h = await startRecorder({ topic, timeoutMs, maxPollIntervalMs });
  const ready = Date.now();
  const exhausted: number[] = [];
  h.events.on('poller.budget_exhausted', (e) => exhausted.push(e.elapsedMs));
  await waitFor('committed', async () => (await offsets(h!.trigger.consumerGroupId, topic))[0]!.committed === 3, 30_000).catch(() => undefined);
  const first = h.seen()[0];
  console.log(
    `[advised-interval] maxPollIntervalMs ${maxPollIntervalMs} for a ${timeoutMs} ms timeout: first invocation ${first ? first.at - ready : '-'} ms after ready ` +
      `(start ${ready - started} ms); went back to the group ${exhausted.length} times before it (elapsed ${exhausted.slice(0, 5).join(', ')} ms)`,
  );
  expect(exhausted).toEqual([]);
  expect(h.seen().flatMap(recordsOf).map((r) => r.offset)).toEqual([0, 1, 2]);
});
