/**
 * Slow by policy is not stuck: a partition held on a record the failure policy retries shows as
 * held (with why) in /healthz and /metrics, and /healthz stays 200; records before it are
 * committed. (Stuck, which fails /healthz, is a partition with records waiting and no chunk,
 * commit or reported attempt for the poll interval: framework/observe/progress.test.ts.)
 */
import { afterAll, expect, it } from 'vitest';
import { startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';

const topic = uniqueName('progress');
let h: Harness | undefined;
afterAll(async () => {
  await h?.stop();
  await deleteTopic(topic);
});

it('a partition retrying a record is held, not stuck: /healthz 200 naming the hold, /metrics its state', async () => {
  await createTopic(topic, 1);
  await produce(topic, Array.from({ length: 3 }, (_, i) => ({ value: `v${i}` })));
  h = await startRecorder({ topic, batchSize: 1, httpPort: 0, env: { POISON_OFFSETS: '1' } });
  let retries = 0;
  h.events.on('poller.retry_scheduled', () => retries++);
  await waitFor('two retries of offset 1', () => retries >= 2);
  expect((await offsets(h.trigger.consumerGroupId, topic))[0]!.committed).toBe(1);

  const health = await fetch(`${h.httpUrl}/healthz`);
  const body = (await health.json()) as { status: string; partitions?: Array<{ partition: number; state: string; held?: string; lag: number }> };
  const metrics = await (await fetch(`${h.httpUrl}/metrics`)).text();
  const stateLine = metrics.split('\n').find((l) => l.startsWith('sluice_partition_state{') && l.includes(`topic="${topic}"`));
  console.log(`[progress] /healthz ${health.status} ${JSON.stringify(body.partitions)}; ${stateLine}`);
  expect(health.status).toBe(200);
  expect(body.partitions).toEqual([expect.objectContaining({ partition: 0, state: 'held', held: 'retrying', lag: 2 })]);
  expect(stateLine).toMatch(/state="held",held="retrying"} 1$/);
});
