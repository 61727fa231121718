/**
 * Issue 24, item 2 (the hang its fault scenario was blamed for): a member stopped while its group
 * rebalanced handed the rebalance back to kafkajs after its last chunk, as it does while running,
 * and kafkajs's runner rejoined the group on its way out. The coordinator holds a JoinGroup until
 * every member has rejoined (up to the rebalance timeout, maxPollIntervalMs), and a member rejoins
 * only once its chunks ended: the stop waited for the longest chunk of another member, and then
 * took partitions it left at once (one more rebalance for the others). A Ctrl-C or a scale-in
 * during a deploy (members joining) waited minutes for functions with long timeouts. The same
 * rejoin follows a commit the coordinator refused because its node went down (the fault tier's
 * rejoin-inside-fetch scenario stops nodes while members leave).
 *
 * Here: members A (chunks of 40 s) and B (chunks of 4 s) share a topic's two partitions; while
 * both run a chunk, member C joins (a rebalance, which A can join only after its chunk), and B is
 * stopped. B's stop must end with its own chunk, without waiting for A's, and B must not rejoin.
 * Measured before the fix: B's stop took 38.0 s and B joined the group once more while stopping;
 * after it: 2.0 s (the rest of B's own chunk), no join.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { engineUnderTest, startRecorder, type Harness, type RecorderOptions } from '../support/harness.ts';
import { createTopic, deleteTopic, produce, uniqueName, waitFor } from '../support/kafka.ts';

const A_CHUNK_MS = 40_000;
const B_CHUNK_MS = 4_000;

describe('a member stopped while its group rebalances', () => {
  const topic = uniqueName('stop-rebalance');
  const group = uniqueName('stop-rebalance-g');
  const member = (sleepMs: number): RecorderOptions => ({
    topic, consumerGroupId: group, batchSize: 1, concurrency: 2, timeoutMs: 60_000, maxPollIntervalMs: 120_000,
    sessionTimeoutMs: 10_000, heartbeatIntervalMs: 1_000, env: { SLEEP_MS: String(sleepMs) },
  });
  const started: Array<Promise<Harness>> = [];
  afterAll(async () => {
    await Promise.allSettled(started.map(async (h) => (await h).stop()));
    await deleteTopic(topic);
  });

  it("ends with its own chunk, without waiting for another member's, and does not rejoin", { timeout: 150_000 }, async () => {
    await createTopic(topic, 2);
    const startMember = (sleepMs: number) => {
      const h = startRecorder(member(sleepMs));
      started.push(h);
      return h;
    };
    const a = await startMember(A_CHUNK_MS);
    const b = await startMember(B_CHUNK_MS);
    await waitFor('A and B to share the partitions', () => b.joins.length > 0 && Object.values(a.joins.at(-1)!.assignment).flat().length === 1, 30_000);
    await produce(topic, [{ partition: 0, value: 'p0' }, { partition: 1, value: 'p1' }]);
    await waitFor('a chunk running in A and in B', () => a.seen().length > 0 && b.seen().length > 0, 30_000, 50);
    const chunkStarted = Date.now();

    void startMember(1_000); // C: its join begins a rebalance that A can join only after its chunk
    await new Promise((r) => setTimeout(r, 2_000)); // B's heartbeats (every second) learn of it
    const joinsBefore = b.joins.length;
    const stopAt = Date.now();
    await b.stop();
    const stopMs = Date.now() - stopAt;
    const aDoneAtBStop = a.completed().length;
    console.log(`[stop-rebalance] B's stop took ${stopMs} ms (B's chunk ${B_CHUNK_MS} ms, began ${stopAt - chunkStarted} ms before the stop; A's chunk ${A_CHUNK_MS} ms); B joined ${b.joins.length - joinsBefore} more time(s) while stopping`);

    expect(b.completed(), "B's own chunk finished").toHaveLength(1);
    // On KIP-848 (the librdkafka engine) a member never rejoins: each change of its assignment is
    // announced as a join; one that brings it a partition it did not hold is what a rejoin would be.
    const whileStopping = b.joins.slice(joinsBefore);
    const held = (i: number) => new Set(i < 0 ? [] : Object.values(b.joins[i]!.assignment).flat());
    const rejoins = engineUnderTest().engine === 'librdkafka'
      ? whileStopping.filter((j, i) => Object.values(j.assignment).flat().some((p) => !held(joinsBefore + i - 1).has(p)))
      : whileStopping;
    expect(rejoins.length, 'B rejoined the group while stopping').toBe(0);
    // B's chunk ends about 2 s after the stop; A's only about 36 s after it: B's stop was over first.
    expect(aDoneAtBStop, "B's stop waited for A's chunk").toBe(0);
  });
});
