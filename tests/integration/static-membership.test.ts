/**
 * Static membership (KIP-345) on the librdkafka engine with KIP-848's consumer protocol: one of
 * three members, each with its own groupInstanceId, stops and starts again well within the
 * broker's session timeout (45 s by default) under a steady load. No partition changes owner:
 * `sluice status` (what the broker describes) shows the same split before and after, the other
 * two members are never asked to give up a partition, and the restarted member gets back exactly
 * what it had. Measured: how long its partitions waited, and the other partitions' longest gap.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readStatus } from '../../framework/cli/lag-read.ts';
import { formatStatus } from '../../framework/cli/status-report.ts';
import { Instrumentation } from '../../framework/observe/events.ts';
import { startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, testLogger, uniqueName, waitFor } from '../support/kafka.ts';

const PARTITIONS = 6;

interface Span { member: string; partition: number; start: number; end: number }

describe('static membership (librdkafka, KIP-848)', () => {
  const topic = uniqueName('static');
  const groupId = uniqueName('static-group');
  const harnesses: Harness[] = [];
  afterAll(async () => {
    await Promise.all(harnesses.map((h) => h.stop()));
    await deleteTopic(topic);
  });

  it('a member restarted within the session timeout keeps its partitions: status shows the same owners before and after', async () => {
    await createTopic(topic, PARTITIONS);
    const spans: Span[] = [];
    const revoked: Array<{ member: string; partitions: number[] }> = [];
    const member = async (name: string): Promise<Harness> => {
      const events = new Instrumentation();
      const starts = new Map<string, number>();
      events.on('poller.chunk_start', (e) => starts.set(`${e.partition}:${e.firstOffset}:${e.attempt}`, Date.now()));
      events.on('poller.chunk_end', (e) => spans.push({ member: name, partition: e.partition, start: starts.get(`${e.partition}:${e.firstOffset}:${e.attempt}`)!, end: Date.now() }));
      events.on('group.rebalance_detected', (e) => revoked.push({ member: name, partitions: e.partitions ?? [] }));
      const h = await startRecorder({
        topic, consumerGroupId: groupId, engine: 'librdkafka', groupProtocol: 'consumer', groupInstanceId: `${groupId}-${name}`,
        batchSize: 10, maximumBatchingWindowMs: 0, concurrency: PARTITIONS, events, env: { SLEEP_MS: '100' },
      });
      harnesses.push(h);
      return h;
    };
    // A steady 60 records/s over the partitions for the whole test.
    let sent = 0;
    let stopLoad = false;
    const load = (async () => {
      while (!stopLoad) {
        await produce(topic, Array.from({ length: PARTITIONS }, (_, i) => ({ partition: i, value: `v${sent + i}` })));
        sent += PARTITIONS;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    /** What `sluice status` reads: each member's instance id -> its partitions, and the group's state. */
    const statusOwners = async (anyone: Harness) => {
      const [s] = await readStatus({ triggers: [anyone.trigger], logger: testLogger });
      console.log(`[static] sluice status:\n${formatStatus([s!])}`);
      return { state: s!.group.state, owners: Object.fromEntries(s!.group.members.map((m) => [m.groupInstanceId ?? m.memberId, (m.assignment[topic] ?? []).join(',')])) };
    };
    try {
      const m1 = await member('m1');
      const m2 = await member('m2');
      const m3 = await member('m3');
      const owned = (h: Harness) => h.joins.at(-1)?.assignment[topic] ?? [];
      await waitFor('three members, two partitions each', () => [m1, m2, m3].every((h) => owned(h).length === 2), 90_000);
      await new Promise((r) => setTimeout(r, 2_000));
      const before = await statusOwners(m1);
      const m2Partitions = [...owned(m2)].sort((a, b) => a - b);
      const revokedBefore = revoked.length;

      const stoppedAt = Date.now();
      await m2.stop();
      harnesses.splice(harnesses.indexOf(m2), 1);
      const back = await member('m2');
      const restartedIn = Date.now() - stoppedAt;
      await waitFor('the restarted member to get its partitions', () => owned(back).length > 0, 60_000);
      await waitFor('the restarted member to run chunks of each of its partitions', () => m2Partitions.every((p) => spans.some((s) => s.member === 'm2' && s.partition === p && s.start > stoppedAt)), 60_000);
      await new Promise((r) => setTimeout(r, 2_000));
      const after = await statusOwners(m1);

      stopLoad = true;
      await load;
      await waitFor('the group to commit the log end', async () => (await offsets(groupId, topic)).every((p) => p.committed === p.logEnd), 60_000);

      const waited = m2Partitions.map((p) => {
        const last = spans.filter((s) => s.partition === p && s.end <= stoppedAt + 5_000 && s.start < stoppedAt).at(-1);
        const first = spans.filter((s) => s.partition === p && s.start > stoppedAt).sort((a, b) => a.start - b.start)[0];
        return first!.start - (last?.end ?? stoppedAt);
      });
      const others = [...Array(PARTITIONS).keys()].filter((p) => !m2Partitions.includes(p));
      const gapOf = (p: number) => {
        const list = spans.filter((s) => s.partition === p && s.end > stoppedAt).sort((a, b) => a.start - b.start);
        let longest = 0;
        for (let i = 1; i < list.length; i++) longest = Math.max(longest, list[i]!.start - list[i - 1]!.end);
        return longest;
      };
      const otherGap = Math.max(...others.map(gapOf));
      const revokedSince = revoked.slice(revokedBefore).filter((r) => r.member !== 'm2');
      console.log(
        `[static] before ${JSON.stringify(before.owners)}, after ${JSON.stringify(after.owners)}; m2 had ${m2Partitions.join(',')} and got back ${[...owned(back)].sort((a, b) => a - b).join(',')}; ` +
          `restarted in ${restartedIn} ms; its partitions waited ${waited.join(', ')} ms; the other partitions' longest gap ${otherGap} ms; revocations at m1/m3 ${revokedSince.length}; ${sent} records`,
      );
      expect(before.state).toBe('Stable');
      expect(Object.keys(before.owners).sort()).toEqual(['m1', 'm2', 'm3'].map((m) => `${groupId}-${m}`));
      expect(Object.values(before.owners).every((ps) => ps.split(',').length === 2)).toBe(true);
      expect(after).toEqual(before);
      expect([...owned(back)].sort((a, b) => a - b)).toEqual(m2Partitions);
      expect(revokedSince).toEqual([]);
    } finally {
      stopLoad = true;
      await load;
    }
  });

  it('a second member with an instance id another member holds fails its start, saying whose id and what to do; the holder runs on', async () => {
    const own = uniqueName('static-dup');
    const dupTopic = uniqueName('static-dup-t');
    await createTopic(dupTopic, 2);
    try {
      const holder = await startRecorder({ topic: dupTopic, consumerGroupId: own, engine: 'librdkafka', groupProtocol: 'consumer', groupInstanceId: 'poller-0' });
      harnesses.push(holder);
      const startedAt = Date.now();
      const second = await startRecorder({ topic: dupTopic, consumerGroupId: own, engine: 'librdkafka', groupProtocol: 'consumer', groupInstanceId: 'poller-0' }).then(
        (h) => (harnesses.push(h), undefined),
        (e: Error) => e,
      );
      console.log(`[static duplicate id] start failed after ${Date.now() - startedAt} ms: ${second?.message}`);
      expect(second?.message).toMatch(/refused groupInstanceId "poller-0": another member still holds it \(Broker: The instance ID is still used by another member in the consumer group\)/);
      expect(second?.message).toMatch(/Give each poller its own groupInstanceId/);
      await produce(dupTopic, [{ value: 'after', partition: 0 }, { value: 'after', partition: 1 }]);
      await waitFor('the holder consumed both', async () => (await offsets(own, dupTopic)).every((p) => p.committed === 1), 60_000);
    } finally {
      await deleteTopic(dupTopic);
    }
  });
});
