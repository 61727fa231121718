/**
 * Records the registry cannot decode, and filters on decoded fields, through the real poller
 * and the real registry. A record framed with an id the registry never issued is
 * SCHEMA_NOT_FOUND; one whose bytes are not its schema's (cut short, or never framed) is
 * DESERIALIZATION_ERROR. Both reach the destination with the bytes as they were read, the rest
 * of the batch is invoked, and the group commits past them. With no destination each is logged
 * and skipped, as AWS drops it, once the registry decoded a record of the trigger (an unknown id
 * after a grace, 0 here; framework/poller/schema-failure-without-destination.test.ts has the other
 * holds); until then the partition waits on it (a wrong schemaRegistryUri fails every record alike).
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { SchemaRegistrySpec } from '../../../framework/config/types.ts';
import { FAILURE_HEADERS } from '../../../framework/failure/failed-record.ts';
import { recordsOf, startRecorder, type Harness } from '../../support/harness.ts';
import { createTopic, deleteTopic, offsets, readTopic, uniqueName, waitFor } from '../../support/kafka.ts';
import { produceWithRegistry, type Produced } from '../../support/registry-producer.ts';
import { avroRecords, order } from './schemas.ts';

const registrySpec = (format: 'JSON' | 'SOURCE'): SchemaRegistrySpec => ({ uri: inject('schemaRegistryUrl'), format, key: false, value: true, access: {} });
const decodedOf = (h: Harness) => h.seen().flatMap(recordsOf).map((r) => ({ offset: r.offset, value: r.value }));

describe('schema registry: records it cannot decode', () => {
  const topic = uniqueName('sr-bad');
  const destination = uniqueName('sr-bad-dlq');
  const destination4 = uniqueName('sr-bad-dlq4');
  let good: Produced;
  /** Offsets of the bad records and what each must be reported as. */
  const bad = new Map<number, { reason: string; bytes: Buffer }>();
  const TOTAL = 12;

  // A schema id the registry does not have is skipped without a destination only after a grace (5 minutes by default).
  const graceBefore = process.env.SLUICE_SCHEMA_NOT_FOUND_GRACE_SECONDS;
  beforeAll(async () => {
    process.env.SLUICE_SCHEMA_NOT_FOUND_GRACE_SECONDS = '0';
    await createTopic(topic, 1);
    await createTopic(destination, 1);
    await createTopic(destination4, 1);
    const registry = inject('schemaRegistryUrl');
    good = await produceWithRegistry(registry, topic, avroRecords(4));
    const framed = good.encoded[0]!.value!;
    const unknownId = Buffer.concat([Buffer.from([0, 0x7f, 0xff, 0xff, 0x00]), framed.subarray(5)]);
    const cutShort = framed.subarray(0, framed.length - 3);
    const unframed = Buffer.from(JSON.stringify(order(99)));
    const more = await produceWithRegistry(registry, topic, [
      // The good records keep their keys (ids 1000 and on again), the bad ones have none.
      { value: { raw: unknownId } }, ...avroRecords(2), { value: { raw: cutShort } }, { value: { raw: unframed } }, ...avroRecords(3),
    ]);
    expect(good.offsets.length + more.offsets.length).toBe(TOTAL);
    bad.set(4, { reason: 'SCHEMA_NOT_FOUND', bytes: unknownId });
    bad.set(7, { reason: 'DESERIALIZATION_ERROR', bytes: cutShort });
    bad.set(8, { reason: 'DESERIALIZATION_ERROR', bytes: unframed });
  });
  afterAll(async () => {
    if (graceBefore === undefined) delete process.env.SLUICE_SCHEMA_NOT_FOUND_GRACE_SECONDS;
    else process.env.SLUICE_SCHEMA_NOT_FOUND_GRACE_SECONDS = graceBefore;
    await deleteTopic(topic);
    await deleteTopic(destination);
    await deleteTopic(destination4);
  });

  it('sends them to the destination with AWS\'s reasons and the bytes as read, invokes the rest, commits past them', async () => {
    const h = await startRecorder({ topic, schemaRegistry: registrySpec('JSON'), failure: { maximumRetryAttempts: -1, maximumRecordAgeMs: undefined, bisectBatchOnFunctionError: false, reportBatchItemFailures: false, onFailure: { kind: 'kafka', uri: `kafka://${destination}`, topic: destination } } });
    try {
      await waitFor('the group committed the whole topic', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]?.committed === TOTAL);
      const dead = await readTopic(destination, bad.size);
      expect(dead.map((d) => Number(d.headers[FAILURE_HEADERS.offset]!.toString()))).toEqual([...bad.keys()]);
      for (const d of dead) {
        const expected = bad.get(Number(d.headers[FAILURE_HEADERS.offset]!.toString()))!;
        expect(d.headers[FAILURE_HEADERS.reason]!.toString()).toBe(expected.reason);
        expect(d.value!.equals(expected.bytes)).toBe(true);
        expect(d.headers[FAILURE_HEADERS.error]!.toString()).toMatch(/the record's value: /);
      }
      const invoked = decodedOf(h).map((r) => r.offset);
      expect(invoked).toEqual([...Array(TOTAL).keys()].filter((o) => !bad.has(o)));
      console.log(`[schema-registry] ${invoked.length} invoked, ${dead.length} in ${destination}: ${dead.map((d) => `${d.headers[FAILURE_HEADERS.offset]}=${d.headers[FAILURE_HEADERS.reason]}`).join(', ')}; 0 lost`);
    } finally {
      await h.stop();
    }
  });

  it('without a destination, once the registry decoded records, logs and skips each one as AWS drops it: every other record is invoked, the group commits the whole topic', async () => {
    const h = await startRecorder({ topic, schemaRegistry: registrySpec('SOURCE') });
    const skipped: string[] = [];
    h.events.on('poller.skipped', (e) => e.offsets.forEach((o) => skipped.push(`${o} ${e.reason}`)));
    try {
      await waitFor('the group committed the whole topic', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]?.committed === TOTAL);
      expect(skipped.sort()).toEqual([...bad].map(([o, b]) => `${o} ${b.reason}`).sort());
      expect(decodedOf(h).map((r) => r.offset)).toEqual([...Array(TOTAL).keys()].filter((o) => !bad.has(o)));
    } finally {
      await h.stop();
    }
  });

  it('without a destination, holds the partition on such a record while the registry has decoded none (a wrong schemaRegistryUri would fail them all), and skips it once a record decodes', async () => {
    const fresh = uniqueName('sr-bad-first');
    await createTopic(fresh, 1);
    try {
      const framed = good.encoded[0]!.value!;
      await produceWithRegistry(inject('schemaRegistryUrl'), fresh, [{ value: { raw: Buffer.concat([Buffer.from([0, 0x7f, 0xff, 0xff, 0x01]), framed.subarray(5)]) } }]);
      const h = await startRecorder({ topic: fresh, schemaRegistry: registrySpec('SOURCE') });
      let held = 0;
      const skipped: number[] = [];
      h.events.on('poller.destination_failed', (e) => (held += e.offsets.includes(0) && e.reason === 'SCHEMA_NOT_FOUND' && e.destination === '(none)' ? 1 : 0));
      h.events.on('poller.skipped', (e) => skipped.push(...e.offsets));
      try {
        await waitFor('the partition held on offset 0 twice', () => held >= 2, 30_000);
        expect(skipped).toEqual([]);
        expect((await offsets(h.trigger.consumerGroupId, fresh))[0]?.committed ?? -1).toBeLessThanOrEqual(0);
        // A record the registry decodes, after it: the next attempt finds the registry proven and skips offset 0.
        await produceWithRegistry(inject('schemaRegistryUrl'), fresh, avroRecords(1));
        await waitFor('the group committed both records', async () => (await offsets(h.trigger.consumerGroupId, fresh))[0]?.committed === 2, 60_000);
        expect(skipped).toEqual([0]);
        expect(decodedOf(h).map((r) => r.offset)).toEqual([1]);
      } finally {
        await h.stop();
      }
    } finally {
      await deleteTopic(fresh);
    }
  });

  // parallelizationFactor 4 (issue 28): the same give-ups per record; the bad records have null keys, the good ones keys.
  it('at parallelizationFactor 4, sends them to the destination the same way and invokes every other record', async () => {
    const h = await startRecorder({ topic, parallelizationFactor: 4, batchSize: 2, schemaRegistry: registrySpec('JSON'), failure: { maximumRetryAttempts: -1, maximumRecordAgeMs: undefined, bisectBatchOnFunctionError: false, reportBatchItemFailures: false, onFailure: { kind: 'kafka', uri: `kafka://${destination4}`, topic: destination4 } } });
    try {
      await waitFor('the group committed the whole topic', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]?.committed === TOTAL);
      const dead = await readTopic(destination4, bad.size);
      expect(dead.map((d) => `${d.headers[FAILURE_HEADERS.offset]} ${d.headers[FAILURE_HEADERS.reason]}`).sort()).toEqual([...bad].map(([o, b]) => `${o} ${b.reason}`).sort());
      expect(decodedOf(h).map((r) => r.offset).sort((a, b) => a - b)).toEqual([...Array(TOTAL).keys()].filter((o) => !bad.has(o)));
    } finally {
      await h.stop();
    }
  });

  it('at parallelizationFactor 4 without a destination, skips them the same way once the registry decoded records: every other record runs, the commit passes them', async () => {
    const h = await startRecorder({ topic, parallelizationFactor: 4, batchSize: 2, schemaRegistry: registrySpec('SOURCE') });
    const skipped: number[] = [];
    h.events.on('poller.skipped', (e) => skipped.push(...e.offsets));
    try {
      await waitFor('the group committed the whole topic', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]?.committed === TOTAL, 60_000);
      expect(skipped.sort((a, b) => a - b)).toEqual([...bad.keys()].sort((a, b) => a - b));
      expect(decodedOf(h).map((r) => r.offset).sort((a, b) => a - b)).toEqual([...Array(TOTAL).keys()].filter((o) => !bad.has(o)));
    } finally {
      await h.stop();
    }
  });
});

describe('schema registry: filters on decoded fields', () => {
  const topic = uniqueName('sr-filter');
  const N = 30;

  beforeAll(async () => {
    await createTopic(topic, 1);
    await produceWithRegistry(inject('schemaRegistryUrl'), topic, avroRecords(N));
  });
  afterAll(() => deleteTopic(topic));

  for (const format of ['JSON', 'SOURCE'] as const) {
    it(`selects exactly the records whose decoded category matches, in the ${format} format`, async () => {
      const h = await startRecorder({ topic, schemaRegistry: registrySpec(format), filterPatterns: [{ value: { category: ['books'], status: ['PAID'] } }] });
      try {
        await waitFor('the group committed the whole topic', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]?.committed === N);
        const expected = [...Array(N).keys()].filter((i) => order(i).category === 'books' && order(i).status === 'PAID');
        expect(expected.length).toBeGreaterThan(2);
        expect(decodedOf(h).map((r) => r.offset)).toEqual(expected);
      } finally {
        await h.stop();
      }
    });
  }
});
