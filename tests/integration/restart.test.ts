/**
 * Stop the poller mid-stream and start it again with the same group: it resumes from the
 * committed offsets, no record is skipped, and the test reports how many were invoked twice.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';

describe('restart', () => {
  const topic = uniqueName('restart');
  const group = uniqueName('restart-group');
  const harnesses: Harness[] = [];
  afterAll(async () => {
    await Promise.all(harnesses.map((h) => h.stop()));
    await deleteTopic(topic);
  });

  it('resumes from the committed offsets without skipping a record', async () => {
    const total = 2_000;
    await createTopic(topic, 2);
    await produce(topic, Array.from({ length: total }, (_, i) => ({ value: `v${i}`, partition: i % 2 })));

    // Slow chunks so the stop lands mid-stream.
    const first = await startRecorder({ topic, consumerGroupId: group, batchSize: 50, env: { SLEEP_MS: '100' } });
    harnesses.push(first);
    await waitFor('some chunks done', () => first.completed().length >= 4, 60_000);
    await first.stop();
    harnesses.pop();

    const afterStop = await offsets(group, topic);
    const committedAtStop = afterStop.reduce((n, p) => n + Math.max(0, p.committed), 0);
    const seenBefore = first.seen().flatMap(recordsOf).length;
    expect(committedAtStop).toBeGreaterThan(0);
    expect(committedAtStop).toBeLessThan(total);
    // A clean stop commits everything it invoked: the restart redoes nothing.
    expect(committedAtStop).toBe(seenBefore);

    const second = await startRecorder({ topic, consumerGroupId: group, batchSize: 50, recordFile: first.recordFile });
    harnesses.push(second);
    await waitFor('all committed', async () => (await offsets(group, topic)).every((p) => p.committed === p.logEnd), 90_000);

    const delivered = second.seen().flatMap(recordsOf);
    const distinct = new Set(delivered.map((r) => `${r.partition}:${r.offset}`));
    const twice = delivered.length - distinct.size;
    console.log(`[restart] committed ${committedAtStop} of ${total} at stop; ${delivered.length} deliveries, ${twice} records invoked twice`);
    expect(distinct.size).toBe(total);
    expect(twice).toBe(0);
  });
});
