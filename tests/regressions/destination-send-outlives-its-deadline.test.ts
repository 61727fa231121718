/**
 * Issue 24, item 5: a kafka:// destination send ignored the abort Delivery gives it at its
 * deadline. The send given up on kept running, and each retry queued behind it on the same
 * partition with the whole failed set: every copy queued during an outage was written once the
 * destination answered again. And when reading max.message.bytes failed after the producer had
 * connected, the connected producer (and its admin client) was dropped without a disconnect: a
 * client leaked per retry.
 *
 * The stall: the destination topic is deleted after a first send read its partitions and
 * limit, so each write is answered UNKNOWN_TOPIC_OR_PARTITION and retried by kafkajs for seconds,
 * past Delivery's 0.75 s deadline (half of what a 2.5 s poll interval leaves); then it comes back.
 */
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { SluiceEvents } from '../../framework/observe/events.ts';
import { failurePolicy, startRecorder, type Harness } from '../support/harness.ts';
import { brokers, createTopic, deleteTopic, offsets, produce, uniqueName, waitFor, withAdmin } from '../support/kafka.ts';

/** This process's established TCP connections to the first broker (/proc/self/fd's sockets in /proc/self/net/tcp*). */
function brokerConnections(): number {
  const port = Number(brokers()[0]!.split(':').pop()).toString(16).toUpperCase().padStart(4, '0');
  const mine = new Set<string>();
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const link = readlinkSync(`/proc/self/fd/${fd}`);
      if (link.startsWith('socket:[')) mine.add(link.slice('socket:['.length, -1));
    } catch {
      // closed between the listing and the read
    }
  }
  let n = 0;
  for (const table of ['/proc/self/net/tcp', '/proc/self/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[2]!.endsWith(`:${port}`) && f[3] === '01' && mine.has(f[9]!)) n++;
    }
  }
  return n;
}

describe('a kafka:// destination send and its deadline', () => {
  const topics: string[] = [];
  const harnesses: Harness[] = [];
  afterAll(async () => {
    await Promise.all(harnesses.map((h) => h.stop()));
    for (const t of topics) await deleteTopic(t);
  });

  it('sends given up on during a stall are not written when it ends: at most the one still running and the one confirmed', async () => {
    const topic = uniqueName('stalled-dest');
    const failed = `${topic}-failed`;
    topics.push(topic, failed);
    await createTopic(topic, 1);
    await createTopic(failed, 1);
    const h = await startRecorder({
      topic, batchSize: 1, timeoutMs: 1_000, maxPollIntervalMs: 6_000, sessionTimeoutMs: 6_000, heartbeatIntervalMs: 1_000, env: { POISON_OFFSETS: '0,1' },
      failure: failurePolicy({ maximumRetryAttempts: 0, onFailure: { kind: 'kafka', uri: `kafka://${failed}`, topic: failed } }),
    });
    harnesses.push(h);
    const failures: Array<SluiceEvents['poller.destination_failed']> = [];
    const sent: Array<SluiceEvents['poller.sent_to_destination']> = [];
    const t0 = Date.now(); // failures are logged with the ms since the poller started
    h.events.on('poller.destination_failed', (e) => failures.push({ ...e, error: `${Date.now() - t0} ${e.error}` }));
    h.events.on('poller.sent_to_destination', (e) => sent.push(e));
    // The first record goes through: the destination knows the topic's partitions and limit from then on.
    await produce(topic, [{ key: 'k0', value: 'poison' }]);
    await waitFor('the first record sent', () => sent.length === 1);
    // The topic gone from under it: each write of the second record is retried by kafkajs for seconds.
    await deleteTopic(failed);
    await produce(topic, [{ key: 'k1', value: 'poison' }]);
    await waitFor('three sends given up on', () => failures.length >= 3, 90_000);
    const givenUp = failures.length;
    await createTopic(failed, 1);
    await waitFor('committed past it', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]!.committed === 2, 90_000);
    await h.stop(); // the destination closes once every send it started has ended
    const copies = (await withAdmin((a) => a.offsets('nobody', failed)))[0]!.logEnd;
    console.log(`[stalled dest] ${givenUp} sends given up on (${failures.map((f) => f.error.slice(0, 70)).join(' | ')}); ${sent.length - 1} confirmed; ${copies} copies of the second record in the recreated ${failed}`);
    expect(givenUp).toBeGreaterThanOrEqual(3);
    expect(sent).toHaveLength(2);
    // kafkajs cannot cancel a request on the wire: the send running when the topic came back may write too.
    expect(copies).toBeGreaterThanOrEqual(1);
    expect(copies).toBeLessThanOrEqual(2);
  });

  it('max.message.bytes unreadable after the producer connected (the topic is gone): no client left connected per retry', async () => {
    const topic = uniqueName('gone-dest');
    const failed = `${topic}-failed`;
    topics.push(topic, failed);
    await createTopic(topic, 1);
    await createTopic(failed, 1); // it must exist at start
    const h = await startRecorder({ topic, batchSize: 1, env: { POISON_OFFSETS: '0' }, failure: failurePolicy({ maximumRetryAttempts: 0, onFailure: { kind: 'kafka', uri: `kafka://${failed}`, topic: failed } }) });
    harnesses.push(h);
    await deleteTopic(failed);
    const connections: number[] = [];
    h.events.on('poller.destination_failed', () => connections.push(brokerConnections()));
    await produce(topic, [{ key: 'k0', value: 'poison' }]);

    await waitFor('six failed sends', () => connections.length >= 6, 90_000);
    console.log(`[gone dest] connections to the broker after each failed send: ${connections.join(', ')}`);
    expect((await offsets(h.trigger.consumerGroupId, topic))[0]!.committed).toBe(-1);
    // Between the 2nd and the 6th failed send: four retries, not one more client connected.
    expect(connections[5]!).toBeLessThanOrEqual(connections[1]!);
  });
});
