/**
 * `sluice status` and `lag` for a queue trigger (a share group) against the broker: the members it
 * prints are the ones Kafka's own kafka-share-groups (ShareGroupCommand, kafka-tools of the same
 * release) lists, and the start offset and lag per partition equal that tool's, drained and with a
 * backlog left behind by stopped pollers.
 */
import { afterAll, expect, it } from 'vitest';
import { readLag, readStatus } from '../../framework/cli/lag-read.ts';
import { formatLag } from '../../framework/cli/lag-report.ts';
import { formatStatus } from '../../framework/cli/status-report.ts';
import { failurePolicy, recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { brokers, createTopic, deleteTopic, produce, testLogger, uniqueName, waitFor } from '../support/kafka.ts';
import { runKafkaTool } from '../support/kafka-tools.ts';

const topics: string[] = [];
afterAll(async () => {
  for (const t of topics) await deleteTopic(t);
});

/** kafka-share-groups --describe [--members], its table's rows split into columns (the header row left out). */
async function shareGroupsTool(group: string, members = false): Promise<string[][]> {
  const java = await runKafkaTool('org.apache.kafka.tools.consumer.group.ShareGroupCommand', ['--bootstrap-server', brokers().join(','), '--describe', '--group', group, ...(members ? ['--members'] : [])]);
  let out = '';
  java.stdout!.on('data', (d: Buffer) => void (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => java.on('exit', resolve));
  expect(code, out).toBe(0);
  return out.split('\n').filter((l) => l.startsWith(`${group} `)).map((l) => l.trim().split(/\s+/));
}

it('shows the share group\'s members and, per partition, the start offset and lag Kafka\'s own tool shows', async () => {
  const topic = uniqueName('queue-status');
  const failed = uniqueName('queue-status-failed');
  topics.push(topic, failed);
  await createTopic(topic, 3);
  await createTopic(failed, 1);
  await produce(topic, Array.from({ length: 30 }, (_, i) => ({ value: `v${i}`, partition: i % 3 })));
  const groupId = uniqueName('queue-status-group');
  const options = { topic, consumerGroupId: groupId, consumptionMode: 'queue' as const, batchSize: 5, failure: failurePolicy({ onFailure: { kind: 'kafka', uri: `kafka://${failed}`, topic: failed } }) };
  const members: Harness[] = [await startRecorder(options), await startRecorder(options)];
  try {
    await waitFor('30 records invoked', () => members.flatMap((m) => m.seen()).flatMap(recordsOf).length >= 30);
    const trigger = members[0]!.trigger;
    await waitFor('the share group drained, as status reads it', async () => (await readStatus({ triggers: [trigger], logger: testLogger }))[0]!.totalLag === 0);
    const [running] = await readStatus({ triggers: [trigger], logger: testLogger });
    console.log(`[queue-status]\n${formatStatus([running!])}`);
    expect(running!.group.type).toBe('share');
    expect(running!.group.state).toBe('Stable');
    // The members' ids as Kafka's tool lists them (--members: GROUP CONSUMER-ID HOST CLIENT-ID ASSIGNMENT).
    const listed = (await shareGroupsTool(groupId, true)).map((row) => row[1]).sort();
    expect(running!.group.members.map((m) => m.memberId).sort()).toEqual(listed);
    expect(listed).toHaveLength(2);
    for (const m of running!.group.members) expect(m.assignment[topic]?.length ?? 0).toBeGreaterThan(0);
    expect(formatStatus([running!])).toContain(`share group ${groupId}`);

    // Pollers stopped, records left behind: the lag is the backlog, partition by partition.
    for (const m of members.splice(0)) await m.stop();
    await produce(topic, Array.from({ length: 12 }, (_, i) => ({ value: `later${i}`, partition: i % 3 })));
    const [stopped] = await readLag({ triggers: [trigger], logger: testLogger });
    console.log(`[queue-status]\n${formatLag([stopped!])}`);
    const tool = await shareGroupsTool(groupId); // GROUP TOPIC PARTITION START-OFFSET LAG
    expect(stopped!.partitions.map((p) => [String(p.partition), String(p.committed), String(p.lag)])).toEqual(tool.map((row) => [row[2], row[3], row[4]]));
    expect(stopped!.partitions.map((p) => [p.partition, p.logEnd, p.lag])).toEqual([[0, 14, 4], [1, 14, 4], [2, 14, 4]]);
    expect(stopped!.totalLag).toBe(12);
    expect(formatLag([stopped!])).toContain('  partition  start  log-end  lag');
  } finally {
    for (const m of members) await m.stop();
  }
});
