/**
 * Lag against the real broker: produce N, consume M, and `lag` reports N − M per partition,
 * both as a function (readLag) and as `npm run lag` run as a process.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TriggerSpec } from '../../framework/config/types.ts';
import type { TriggerLag } from '../../framework/cli/lag-report.ts';
import { readLag } from '../../framework/cli/lag-read.ts';
import { runCli } from '../support/cli.ts';
import { recorderTrigger, startRecorder } from '../support/harness.ts';
import { brokers, createTopic, deleteTopic, offsets, produce, testLogger, uniqueName, waitFor, withAdmin } from '../support/kafka.ts';

const topics: string[] = [];
afterAll(async () => {
  for (const t of topics) await deleteTopic(t);
});

/** Produces `counts[p]` records to each partition p. */
async function produceTo(topic: string, counts: number[], tag: string): Promise<void> {
  await produce(topic, counts.flatMap((n, partition) => Array.from({ length: n }, (_, i) => ({ partition, value: `${tag}-${partition}-${i}` }))));
}

async function freshTopic(partitions: number): Promise<string> {
  const topic = uniqueName('lag');
  topics.push(topic);
  await createTopic(topic, partitions);
  return topic;
}

const lagsOf = (r: TriggerLag) => r.partitions.map((p) => p.lag);

describe('lag', () => {
  it('reports log-end minus committed per partition for a group whose offsets were committed', async () => {
    const topic = await freshTopic(3);
    const group = uniqueName('lag-group');
    await produceTo(topic, [10, 6, 4], 'n');
    await withAdmin((a) => a.setGroupOffsets(group, topic, [{ partition: 0, offset: 3 }, { partition: 1, offset: 6 }, { partition: 2, offset: 0 }]));

    const trigger: TriggerSpec = { ...recorderTrigger({ topic, consumerGroupId: group }, '/dev/null'), functionName: 'orders' };
    const [report] = await readLag({ triggers: [trigger], logger: testLogger });
    expect(report!.partitions.map((p) => [p.partition, p.committed, p.logEnd, p.lag])).toEqual([[0, 3, 10, 7], [1, 6, 6, 0], [2, 0, 4, 4]]);
    expect(report!.totalLag).toBe(11);
    expect(report!.group.members).toEqual([]);

    // The same through `npm run lag`, from a serverless.yml, as a process.
    const dir = mkdtempSync(join(tmpdir(), 'sluice-lag-'));
    writeFileSync(
      join(dir, 'serverless.yml'),
      `service: lag-test\nprovider:\n  name: aws\nfunctions:\n  orders:\n    handler: functions/orders.handler\n    events:\n      - sluice:\n          topic: ${topic}\n          consumerGroupId: ${group}\n          bootstrapServers: ${brokers().join(',')}\n`,
    );
    const json = runCli('framework/cli/lag.ts', ['--json'], { cwd: dir });
    expect(await json.exited, json.output()).toBe(0);
    const printed = JSON.parse(json.output()) as TriggerLag[];
    expect(printed.map((r) => [r.functionName, r.groupId, lagsOf(r)])).toEqual([['orders', group, [7, 0, 4]]]);

    const text = runCli('framework/cli/lag.ts', [], { cwd: dir });
    expect(await text.exited, text.output()).toBe(0);
    expect(text.output()).toContain(`orders: topic ${topic}, group ${group} (Empty, 0 members)`);
    expect(text.output()).toMatch(/partition +committed +log-end +lag\n +0 +3 +10 +7\n +1 +6 +6 +0\n +2 +0 +4 +4\n +total lag 11/);
  });

  it('a topic that does not exist: one clear line, exit 1, no stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-lag-'));
    const topic = uniqueName('no-such-topic');
    writeFileSync(
      join(dir, 'serverless.yml'),
      `service: lag-test\nprovider:\n  name: aws\nfunctions:\n  orders:\n    handler: functions/orders.handler\n    events:\n      - sluice:\n          topic: ${topic}\n          bootstrapServers: ${brokers().join(',')}\n`,
    );
    const lag = runCli('framework/cli/lag.ts', [], { cwd: dir });
    expect(await lag.exited).toBe(1);
    const lines = lag.output().trim().split('\n');
    expect(lines).toEqual([`sluice: functions.orders.events[0].sluice.topic: topic "${topic}" does not exist on ${brokers().join(',')}. Create it (npm start creates it on the local Kafka), or fix the topic name.`]);
  });

  it('after a poller consumed M of N records: N − M per partition, and the member while it runs', async () => {
    const topic = await freshTopic(2);
    const consumed = [5, 3];
    await produceTo(topic, consumed, 'm');
    const harness = await startRecorder({ topic, batchSize: 2, maximumBatchingWindowMs: 0 });
    const group = harness.trigger.consumerGroupId;
    try {
      await waitFor('M records committed', async () => (await offsets(group, topic)).map((p) => p.committed).join() === consumed.join());
      const [running] = await readLag({ triggers: [harness.trigger], logger: testLogger });
      expect(running!.group.state).toBe('Stable');
      expect(running!.group.members).toHaveLength(1);
      expect(running!.group.members[0]!.assignment[topic]!.sort()).toEqual([0, 1]);
      expect(lagsOf(running!)).toEqual([0, 0]);
    } finally {
      await harness.stop();
    }

    const more = [4, 9];
    await produceTo(topic, more, 'rest');
    const [after] = await readLag({ triggers: [harness.trigger], logger: testLogger });
    expect(after!.partitions.map((p) => [p.committed, p.logEnd, p.lag])).toEqual([[5, 9, 4], [3, 12, 9]]);
    expect(after!.totalLag).toBe(13);
    expect(after!.group.members).toEqual([]);
  });
});
