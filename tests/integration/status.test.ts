/**
 * `sluice status` against the real broker, for a group of two running members: what it prints
 * equals what librdkafka's admin client (an independent client) gets from DescribeGroups and
 * FindCoordinator, each member's partitions equal the assignment the member itself received, and
 * the __consumer_offsets partition equals the JVM's computation with Kafka's own Utils.abs,
 * for group ids that include one whose String.hashCode() is Integer.MIN_VALUE.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readStatus } from '../../framework/cli/lag-read.ts';
import { formatStatus, type TriggerStatus } from '../../framework/cli/status-report.ts';
import { javaStringHash } from '../../framework/kafka/offsets-partition.ts';
import { LIB_DIR } from '../../infra/kafka/broker.ts';
import { runCli } from '../support/cli.ts';
import { recorderTrigger, startRecorder, type Harness } from '../support/harness.ts';
import { brokers, createTopic, deleteTopic, offsets, produce, testLogger, uniqueName, waitFor } from '../support/kafka.ts';
import { python } from '../support/python.ts';

const DESCRIBE = fileURLToPath(new URL('../support/describe_group.py', import.meta.url));
const JAVA_PARTITION = fileURLToPath(new URL('../support/OffsetsPartition.java', import.meta.url));

interface Described {
  state: string;
  assignor: string;
  coordinator: { id: number; host: string; port: number };
  offsetsPartitions: number;
  members: Array<{ memberId: string; clientId: string; host: string; partitions: Array<[string, number]> }>;
}

function describeWithLibrdkafka(groupId: string): Described {
  const run = spawnSync(python(), [DESCRIBE, brokers().join(','), groupId], { encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`describe_group.py failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Described;
}

/** The JVM's `Utils.abs(groupId.hashCode()) % partitions`, with kafka-clients from the broker's own jars. */
function javaOffsetsPartitions(partitions: number, groupIds: string[]): number[] {
  const run = spawnSync('java', ['-cp', join(LIB_DIR, '*'), JAVA_PARTITION, String(partitions), ...groupIds], { encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new Error(`OffsetsPartition.java failed: ${run.stderr}`);
  return run.stdout.trim().split('\n').map(Number);
}

const topics: string[] = [];
afterAll(async () => {
  for (const t of topics) await deleteTopic(t);
});

describe('sluice status', () => {
  it('a group of two members: state, assignor, coordinator and assignment as the broker describes them; lag 0 once drained', async () => {
    const topic = uniqueName('status');
    topics.push(topic);
    await createTopic(topic, 4);
    await produce(topic, Array.from({ length: 40 }, (_, i) => ({ partition: i % 4, value: `s-${i}` })));
    const groupId = uniqueName('status-group');
    const members: Harness[] = [];
    try {
      members.push(await startRecorder({ topic, consumerGroupId: groupId }));
      members.push(await startRecorder({ topic, consumerGroupId: groupId }));
      // Stable with both members holding two partitions each, and all 40 committed.
      await waitFor('two members, two partitions each', () => members.every((m) => (m.joins.at(-1)?.assignment[topic]?.length ?? 0) === 2));
      await waitFor('all committed', async () => (await offsets(groupId, topic)).every((p) => p.committed === 10));

      const [status] = await readStatus({ triggers: [members[0]!.trigger], logger: testLogger });
      const broker = describeWithLibrdkafka(groupId);
      const s = status!;
      console.log(`[status]\n${formatStatus([s])}`);

      expect(s.group.state).toBe('Stable');
      expect(broker.state).toBe('STABLE');
      expect(s.group.protocolType).toBe('consumer');
      expect(s.group.protocol).toBe(broker.assignor);
      expect([s.coordinator.nodeId, s.coordinator.address]).toEqual([broker.coordinator.id, `${broker.coordinator.host}:${broker.coordinator.port}`]);
      expect(s.coordinator.offsetsPartitions).toBe(broker.offsetsPartitions);
      expect(s.coordinator.offsetsPartitionLeader).toBe(s.coordinator.nodeId);

      const printed = s.group.members.map((m) => ({ memberId: m.memberId, clientId: m.clientId, host: m.clientHost, partitions: (m.assignment[topic] ?? []).map((p) => [topic, p]).sort() }));
      expect(sortById(printed)).toEqual(sortById(broker.members));
      // ...and equals what each member was assigned when it (last) joined.
      const own = members.map((m) => ({ memberId: m.joins.at(-1)!.memberId, partitions: [...m.joins.at(-1)!.assignment[topic]!].sort() }));
      expect(sortById(s.group.members.map((m) => ({ memberId: m.memberId, partitions: [...m.assignment[topic]!].sort() })))).toEqual(sortById(own));

      expect(s.partitions.map((p) => [p.partition, p.committed, p.logEnd, p.lag])).toEqual([0, 1, 2, 3].map((p) => [p, 10, 10, 0]));
      expect(s.totalLag).toBe(0);
    } finally {
      for (const m of members) await m.stop();
    }
  });

  it("the coordinator's __consumer_offsets partition is the JVM's, including a group id hashing to Integer.MIN_VALUE", async () => {
    const topic = uniqueName('status-hash');
    topics.push(topic);
    await createTopic(topic, 1);
    const groupIds = ['polygenelubricants', 'sluice-shop-orders', 'hello', uniqueName('g')];
    expect(javaStringHash('polygenelubricants')).toBe(-2147483648);
    const statuses = await readStatus({ triggers: groupIds.map((g) => recorderTrigger({ topic, consumerGroupId: g }, '/dev/null')), logger: testLogger });
    const partitions = statuses[0]!.coordinator.offsetsPartitions;
    expect(statuses.map((s) => s.coordinator.offsetsPartition)).toEqual(javaOffsetsPartitions(partitions, groupIds));
    expect(statuses[0]!.coordinator.offsetsPartition).toBe(0); // Utils.abs(MIN_VALUE) is 0, not MIN_VALUE
    for (const [i, s] of statuses.entries()) {
      const broker = describeWithLibrdkafka(groupIds[i]!);
      expect(s.coordinator.nodeId).toBe(broker.coordinator.id);
      // The state only for the group no other test can use: 'sluice-shop-orders' is the example
      // service's, which a test beside this one may be running (CI saw PreparingRebalance here).
      if (i === groupIds.length - 1) expect(s.group.state.toUpperCase()).toBe(broker.state); // no member: Dead (never used), as the broker says
    }
  });

  it('npm run status prints the report, --json the same data, and --watch refreshes until Ctrl-C', async () => {
    const topic = uniqueName('status-cli');
    topics.push(topic);
    await createTopic(topic, 2);
    await produce(topic, [{ partition: 0, value: 'a' }, { partition: 1, value: 'b' }, { partition: 1, value: 'c' }]);
    const groupId = uniqueName('status-cli-group');
    const dir = mkdtempSync(join(tmpdir(), 'sluice-status-'));
    writeFileSync(
      join(dir, 'serverless.yml'),
      `service: status-test\nprovider:\n  name: aws\nfunctions:\n  orders:\n    handler: functions/orders.handler\n    events:\n      - sluice:\n          topic: ${topic}\n          consumerGroupId: ${groupId}\n          bootstrapServers: ${brokers().join(',')}\n`,
    );
    const text = runCli('framework/cli/status.ts', [], { cwd: dir });
    expect(await text.exited, text.output()).toBe(0);
    const out = text.output();
    expect(out).toContain(`orders: topic ${topic}, group ${groupId} on ${brokers().join(',')}`);
    expect(out).toMatch(/ {2}state (Empty|Dead), no protocol \(no member\)\n {2}coordinator broker \d+ at \S+:\d+, leader of __consumer_offsets-\d+ \(of \d+\)\n {2}members 0\n/);
    expect(out).toMatch(/partition +committed +log-end +lag +owner\n +0 +- +1 +1 +-\n +1 +- +2 +2 +-\n +total lag 3/);

    const json = runCli('framework/cli/status.ts', ['--json'], { cwd: dir });
    expect(await json.exited, json.output()).toBe(0);
    const [report] = JSON.parse(json.output()) as TriggerStatus[];
    expect([report!.groupId, report!.totalLag, report!.coordinator.offsetsPartition]).toEqual([groupId, 3, javaOffsetsPartitions(report!.coordinator.offsetsPartitions, [groupId])[0]]);

    const watch = runCli('framework/cli/status.ts', ['--watch', '--interval', '1', '--json'], { cwd: dir });
    await watch.waitForOutput(/(\{"at".*\n){3}/, 30_000);
    watch.child.kill('SIGINT');
    expect(await watch.exited, watch.output()).toBe(0);
    const refreshes = watch.output().trim().split('\n').map((l) => JSON.parse(l) as { at: string; triggers: TriggerStatus[] });
    expect(refreshes.length).toBeGreaterThanOrEqual(3);
    expect(refreshes.every((r) => r.triggers[0]!.totalLag === 3)).toBe(true);

    const bad = runCli('framework/cli/status.ts', ['--watch', '--interval', 'soon'], { cwd: dir });
    expect(await bad.exited).toBe(1);
    expect(bad.output().trim()).toBe('sluice: --interval takes the seconds between refreshes of --watch, a whole number 1–3600 (default 2); got "soon".');
  });
});

function sortById<T extends { memberId: string }>(xs: T[]): T[] {
  return [...xs].sort((a, b) => a.memberId.localeCompare(b.memberId));
}
