/**
 * The share client (framework/kafka/share/) against the broker: a member of a share group is handed
 * records with their delivery count, and what it acknowledges decides what comes back: ACCEPT never,
 * RELEASE at the next delivery count, REJECT never. Absence is shown by a record produced after:
 * once it arrives, nothing earlier is still on its way from that fetch session.
 */
import { CompressionTypes } from 'kafkajs';
import { afterAll, expect, it } from 'vitest';
import { kafkajsShareTransport } from '../../framework/kafka/kafkajs/share-transport.ts';
import { alterGroupConfig } from '../../framework/kafka/share/group-messages.ts';
import { ACK } from '../../framework/kafka/share/messages.ts';
import { ShareMember, type ShareRecord } from '../../framework/kafka/share/share-member.ts';
import { brokers, createTopic, deleteTopic, kafka, produce, testLogger, uniqueName, waitFor } from '../support/kafka.ts';
import { runKafkaTool } from '../support/kafka-tools.ts';

const topics: string[] = [];
afterAll(async () => {
  for (const t of topics) await deleteTopic(t);
});

async function shareTopic(partitions: number, records: number): Promise<{ topic: string; group: string }> {
  const topic = uniqueName('share');
  const group = uniqueName('share-group');
  topics.push(topic);
  await createTopic(topic, partitions);
  await produce(topic, Array.from({ length: records }, (_, i) => ({ key: `k${i}`, value: `v${i}`, partition: i % partitions })));
  // A share group starts at the log end unless told otherwise.
  const transport = kafkajsShareTransport(kafka());
  const set = await transport.send('any', alterGroupConfig(group, { 'share.auto.offset.reset': 'earliest' }));
  await transport.close();
  expect(set.errorCode).toBe(0);
  return { topic, group };
}

function member(topic: string, group: string, onRecords: (m: ShareMember, records: ShareRecord[]) => void): ShareMember {
  const crashed: Error[] = [];
  const m: ShareMember = new ShareMember({
    groupId: group, topic, transport: kafkajsShareTransport(kafka()), logger: testLogger, maxInFlight: 100,
    fetch: { maxWaitMs: 200, maxBytes: 1024 * 1024, maxRecords: 50 },
    onBatch: (b) => onRecords(m, b.records),
    onCrash: (e) => void crashed.push(e),
  });
  return m;
}

const seen = (rs: ShareRecord[]) => rs.map((r) => `${r.partition}@${r.offset}#${r.deliveryCount}`).sort();

it('hands each record out once at delivery count 1 when accepted, and a later member of the group gets none of them', async () => {
  const { topic, group } = await shareTopic(3, 30);
  const got: ShareRecord[] = [];
  const first = member(topic, group, (m, rs) => {
    got.push(...rs);
    for (const r of rs) m.acknowledge(r.partition, [r.offset], ACK.ACCEPT);
  });
  await first.start();
  await waitFor('30 records', () => got.length >= 30);
  await first.stop();
  expect(got.map((r) => r.value?.toString()).sort()).toEqual(Array.from({ length: 30 }, (_, i) => `v${i}`).sort());
  expect(got.every((r) => r.deliveryCount === 1)).toBe(true);

  const later: ShareRecord[] = [];
  const second = member(topic, group, (m, rs) => {
    later.push(...rs);
    for (const r of rs) m.acknowledge(r.partition, [r.offset], ACK.ACCEPT);
  });
  await second.start();
  await waitFor('an assignment', () => second.assignment().length === 3);
  await produce(topic, [{ key: 'after', value: 'after', partition: 0 }]);
  await waitFor('the record produced after', () => later.some((r) => r.value?.toString() === 'after'));
  await second.stop();
  expect(later.map((r) => r.value?.toString())).toEqual(['after']);
});

it('gives a released record back at the next delivery count, and never a rejected one', async () => {
  const { topic, group } = await shareTopic(1, 10);
  const got: ShareRecord[] = [];
  const m = member(topic, group, (m, rs) => {
    got.push(...rs);
    for (const r of rs) {
      if (r.value?.toString() === 'after') m.acknowledge(r.partition, [r.offset], ACK.ACCEPT);
      // First delivery: even offsets released, odd ones rejected; the second delivery accepted.
      else m.acknowledge(r.partition, [r.offset], r.deliveryCount > 1 ? ACK.ACCEPT : r.offset % 2 === 0 ? ACK.RELEASE : ACK.REJECT);
    }
  });
  await m.start();
  await waitFor('15 deliveries', () => got.length >= 15);
  await produce(topic, [{ key: 'after', value: 'after', partition: 0 }]);
  await waitFor('the record produced after', () => got.some((r) => r.value?.toString() === 'after'));
  await m.stop();
  expect(seen(got.filter((r) => r.value?.toString() !== 'after'))).toEqual(
    [...Array.from({ length: 10 }, (_, i) => `0@${i}#1`), ...[0, 2, 4, 6, 8].map((i) => `0@${i}#2`)].sort(),
  );
});

it('splits a stream with Kafka\'s own share consumer in the same group: every record accepted once, by one of them', async () => {
  const { topic, group } = await shareTopic(4, 0);
  const ours: ShareRecord[] = [];
  const m = member(topic, group, (m, rs) => {
    ours.push(...rs);
    for (const r of rs) m.acknowledge(r.partition, [r.offset], ACK.ACCEPT);
  });
  await m.start();
  // The Java peer accepts what it prints (implicit acknowledgement) and exits 8 s after the last record.
  const java = await runKafkaTool('org.apache.kafka.tools.consumer.ConsoleShareConsumer', ['--bootstrap-server', brokers().join(','), '--topic', topic, '--group', group, '--timeout-ms', '8000']);
  let printed = '';
  java.stdout!.on('data', (d: Buffer) => void (printed += d.toString()));
  const exited = new Promise<number | null>((resolve) => java.on('exit', resolve));
  // Records arrive in waves while both run, so both have some to take.
  const total = 600;
  for (let wave = 0; wave < 30; wave++) {
    await produce(topic, Array.from({ length: total / 30 }, (_, i) => ({ value: `r${wave * (total / 30) + i}`, partition: i % 4 })));
    await new Promise((r) => setTimeout(r, 300));
  }
  expect(await exited).toBe(0);
  await m.stop();
  const theirs = printed.split('\n').filter(Boolean);
  const all = [...ours.map((r) => r.value!.toString()), ...theirs];
  expect(new Set(all).size).toBe(total); // none lost
  expect(all).toHaveLength(total); // none delivered to both
  expect(ours.length).toBeGreaterThan(0);
  expect(theirs.length).toBeGreaterThan(0);
  expect(ours.every((r) => r.deliveryCount === 1)).toBe(true);
}, 120_000);

it('hands out every record of compressed batches past the decoder\'s budget of decompressed bytes, over later fetches (none acknowledged as a gap)', async () => {
  const { topic, group } = await shareTopic(1, 0);
  // 40 gzip batches of 10 records of 200 KB: about 80 MB decompressed, a few KB on the wire.
  const producer = kafka().producer();
  await producer.connect();
  const big = 'x'.repeat(200 * 1024);
  for (let b = 0; b < 40; b++) await producer.send({ topic, compression: CompressionTypes.GZIP, messages: Array.from({ length: 10 }, (_, i) => ({ value: `${b * 10 + i}:${big}`, partition: 0 })) });
  await producer.disconnect();
  const got = new Set<number>();
  const m: ShareMember = new ShareMember({
    groupId: group, topic, transport: kafkajsShareTransport(kafka()), logger: testLogger, maxInFlight: 1000,
    fetch: { maxWaitMs: 200, maxBytes: 1024 * 1024, maxRecords: 400 }, // queue mode's at batchSize 100, concurrency 4
    onBatch: (b) => {
      for (const r of b.records) got.add(r.offset);
      for (const r of b.records) m.acknowledge(r.partition, [r.offset], ACK.ACCEPT);
    },
    onCrash: () => undefined,
  });
  await m.start();
  await waitFor('all 400 records', () => got.size === 400, 90_000);
  await m.stop();
}, 150_000);

it('decodes a large produced batch once, though a share fetch acquires only a few of its records at a time', async () => {
  const { topic, group } = await shareTopic(1, 0);
  const producer = kafka().producer();
  await producer.connect();
  await producer.send({ topic, compression: CompressionTypes.GZIP, messages: Array.from({ length: 5000 }, (_, i) => ({ value: `record ${i} ${'y'.repeat(200)}`, partition: 0 })) });
  await producer.disconnect();
  const transport = kafkajsShareTransport(kafka());
  const decode = transport.decode.bind(transport);
  // Each decode makes its own list of records: the lists seen tell how many decodes ran.
  const decodes = new Set<unknown>();
  let calls = 0;
  transport.decode = async (tp, p, records) => {
    const r = await decode(tp, p, records);
    decodes.add(r.records);
    calls++;
    return r;
  };
  let delivered = 0;
  const m: ShareMember = new ShareMember({
    groupId: group, topic, transport, logger: testLogger, maxInFlight: 40, fetch: { maxWaitMs: 200, maxBytes: 1024 * 1024, maxRecords: 20 }, // batchSize 10, concurrency 2
    onBatch: (b) => {
      delivered += b.records.length;
      for (const r of b.records) m.acknowledge(r.partition, [r.offset], ACK.ACCEPT);
    },
    onCrash: () => undefined,
  });
  await m.start();
  await waitFor('1,000 records delivered', () => delivered >= 1_000, 60_000);
  await m.stop();
  expect(calls).toBeGreaterThan(20); // the batch came back with every fetch
  expect(decodes.size).toBeLessThanOrEqual(2); // and was decoded once (was once a fetch: 250 records decoded per record delivered)
}, 120_000);
