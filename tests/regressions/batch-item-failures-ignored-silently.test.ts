/**
 * A handler that reported a failed record to a trigger without ReportBatchItemFailures (what
 * `eachRecord` does when a record throws) had it committed as done without a word: the README's
 * own example lost failures silently. They are still ignored, as AWS ignores them, but said loudly
 * once per trigger and counted each time.
 */
import { afterAll, expect, it } from 'vitest';
import { startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';

const topic = uniqueName('ignored-failures');
let h: Harness | undefined;
afterAll(async () => {
  await h?.stop();
  await deleteTopic(topic);
});

it('batchItemFailures without ReportBatchItemFailures are counted and the chunk committed, as on AWS', async () => {
  await createTopic(topic, 1);
  await produce(topic, Array.from({ length: 3 }, (_, i) => ({ value: `v${i}` })));
  h = await startRecorder({ topic, httpPort: 0, env: { REPORT_FAILED_OFFSET: '1' } });
  const ignored: number[] = [];
  h.events.on('poller.item_failures_ignored', (e) => ignored.push(e.count));
  await waitFor('committed', async () => (await offsets(h!.trigger.consumerGroupId, topic))[0]!.committed === 3);
  const metrics = await (await fetch(`${h.httpUrl}/metrics`)).text();
  const line = metrics.split('\n').find((l) => l.startsWith('sluice_item_failures_ignored_total{') && l.includes(topic));
  console.log(`[ignored-failures] events ${JSON.stringify(ignored)}; ${line}`);
  expect(ignored).toEqual([1]);
  expect(line).toMatch(/ 1$/);
  expect(h.seen()).toHaveLength(1); // ignored: not retried
});
