/**
 * What broke: four records, the second with a header named `constructor`, under a retry policy
 * with a kafka:// destination: 0 of 4 were invoked and nothing reached the destination. kafkajs
 * built the headers with a plain object's `reduce`, so the header's value came out as
 * `[Object, <bytes>]`; toKafkaRecord threw on it, the whole batch failed, the supervisor
 * restarted the member on the same uncommitted record until maxConsumerRestarts ended the
 * process. With Sluice's patch of kafkajs the header is an ordinary header.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { failurePolicy, recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';

describe('regression: a header named constructor crash-looped the trigger', () => {
  const topics: string[] = [];
  let h: Harness | undefined;
  afterAll(async () => {
    await h?.stop();
    await Promise.all(topics.map(deleteTopic));
  });

  it('invokes all four records, the one with the header and those after it, with no consumer restart', async () => {
    const topic = uniqueName('ctor');
    const failed = `${topic}-failed`;
    topics.push(topic, failed);
    await createTopic(topic, 1);
    await createTopic(failed, 1);
    await produce(topic, [
      { value: 'r0', partition: 0 },
      { value: 'r1', partition: 0, headers: [['constructor', Buffer.from('c')], ['__proto__', Buffer.from('p')], ['toString', Buffer.from('t')]] },
      { value: 'r2', partition: 0 },
      { value: 'r3', partition: 0 },
    ]);
    h = await startRecorder({ topic, batchSize: 10, failure: failurePolicy({ maximumRetryAttempts: 2, onFailure: { kind: 'kafka', uri: `kafka://${failed}`, topic: failed } }) });
    const restarts: unknown[] = [];
    const sent: number[] = [];
    h.events.on('trigger.consumer_stopped', (e) => restarts.push(e.error));
    h.events.on('poller.sent_to_destination', (e) => sent.push(...e.offsets));
    await waitFor('all four committed', async () => (await offsets(h!.trigger.consumerGroupId, topic))[0]!.committed === 4, 60_000);

    const invoked = h.seen().flatMap(recordsOf);
    console.log(`[constructor header] invoked offsets ${invoked.map((r) => r.offset).join(',')}; sent to the destination: ${sent.length}; consumer restarts: ${restarts.length}`);
    expect(invoked.map((r) => r.offset)).toEqual([0, 1, 2, 3]);
    expect(sent).toEqual([]);
    expect(restarts).toEqual([]);
    const names = invoked[1]!.headers.map((o) => Object.keys(o)[0]).sort();
    expect(names).toEqual(['__proto__', 'constructor', 'toString']);
    const ctor = invoked[1]!.headers.find((o) => Object.keys(o)[0] === 'constructor')!;
    expect(Buffer.from(Object.values(ctor)[0] as number[]).toString()).toBe('c');
  });
});
