/**
 * The registry stops in the middle of a run. Records whose schema the poller already holds
 * need no registry; the first record with a schema it has not seen makes the partition wait
 * (nothing invoked past it, nothing committed, nothing sent anywhere) until the registry
 * answers again; then it drains. A registry of its own (ports 28191/28192, schemas kept in a
 * file, so the restarted one still has them), not the shared one of the other tests.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRegistry, type RegistryHandle } from '../../../infra/registry/registry.ts';
import { recordsOf, startRecorder } from '../../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../../support/kafka.ts';
import { produceWithRegistry } from '../../support/registry-producer.ts';
import { avroRecords, order, ORDER_AVRO } from './schemas.ts';
import { testInstanceDir, testPort } from '../../support/ports.ts';
import { TEST_REGISTRY_START_MS } from '../../support/services.ts';

/** The next version of the value schema (BACKWARD compatible: a new field with a default): a schema id the poller has not seen. */
const ORDER_V2 = JSON.stringify({ ...JSON.parse(ORDER_AVRO), fields: [...JSON.parse(ORDER_AVRO).fields, { name: 'coupon', type: ['null', 'string'], default: null }] });
const v2Records = (n: number) => Array.from({ length: n }, (_, i) => ({ value: { format: 'avro' as const, schema: ORDER_V2, data: { ...order(i), coupon: `c${i}` } } }));

const INSTANCE_DIR = testInstanceDir('registry-outage-test');
const start = () => ensureRegistry({ instanceDir: INSTANCE_DIR, port: testPort(28191), managementPort: testPort(28192), persistent: true, startTimeoutMs: TEST_REGISTRY_START_MS, log: (l) => console.log(`[registry:outage] ${l}`) });

describe('schema registry: an outage mid-run', () => {
  const topic = uniqueName('sr-outage');
  let registry: RegistryHandle;

  beforeAll(async () => {
    rmSync(INSTANCE_DIR, { recursive: true, force: true });
    registry = await start();
    await createTopic(topic, 1);
  }, TEST_REGISTRY_START_MS + 30_000);
  afterAll(async () => {
    await registry?.stop();
    await deleteTopic(topic);
  });

  it('holds the partition on the first record of an unseen schema while the registry is down, then drains with 0 lost', async () => {
    await produceWithRegistry(registry.url, topic, avroRecords(5));
    // Encoded (and its schema registered) now, produced while the registry is down.
    const later = await produceWithRegistry(registry.url, topic, v2Records(5), { produce: false });
    const h = await startRecorder({ topic, schemaRegistry: { uri: registry.url, format: 'JSON', key: false, value: true, access: {} } });
    const waits: number[] = [];
    h.events.on('poller.registry_unavailable', (e) => waits.push(e.firstOffset));
    try {
      await waitFor('the first five committed', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]?.committed === 5);
      await registry.stop();
      await produce(topic, later.encoded.map((e) => ({ key: null, value: e.value })));
      await waitFor('the partition waiting on the registry twice', () => waits.length >= 2, 30_000);
      expect(new Set(waits)).toEqual(new Set([5]));
      expect(h.seen().flatMap(recordsOf).map((r) => r.offset)).toEqual([0, 1, 2, 3, 4]);
      expect((await offsets(h.trigger.consumerGroupId, topic))[0]?.committed).toBe(5);

      registry = await start();
      await waitFor('all ten committed', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]?.committed === 10, 60_000);
      const seen = h.seen().flatMap(recordsOf);
      expect(seen.map((r) => r.offset)).toEqual([...Array(10).keys()]);
      seen.slice(5).forEach((r, i) => expect(JSON.parse(Buffer.from(r.value!, 'base64').toString())).toEqual({ ...order(i), coupon: `c${i}` }));
      console.log(`[schema-registry outage] waited ${waits.length} times on offset 5; 10 of 10 invoked once each, 0 lost`);
    } finally {
      await h.stop();
    }
  }, 180_000 + TEST_REGISTRY_START_MS); // the registry starts again inside the test
});
