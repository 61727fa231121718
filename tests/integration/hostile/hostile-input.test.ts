/**
 * The hostile-input tier (README, "Bounds on hostile input"): what anyone allowed to write to a
 * consumed topic can send, generated with fast-check (the seed is printed; SLUICE_HOSTILE_SEED
 * replays one), produced to a real broker and run through the real poller with a JSON filter, a
 * retry policy and a kafka:// destination. Each run checks the trigger stays up (no consumer
 * restart), every record ends invoked, filtered out or in the destination with the expected
 * reason, the member keeps its session (the poller heartbeats from its own event loop: a decode
 * that blocks it for seconds loses a 6 s session), and its RSS stays under RSS_BOUND.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { engineUnderTest, type Harness } from '../../support/harness.ts';
import { deleteTopic, uniqueName } from '../../support/kafka.ts';
import { hostileBatches } from './generate.ts';
import { rdkafkaPatch } from '../../../framework/kafka/rdkafka/client.ts';
import { createTopics, describeCounts, produceAll, RSS_BOUND, runToEnd } from './tier.ts';

const PARTITIONS = 2;

describe('hostile input', () => {
  const topics: string[] = [];
  let h: Harness | undefined;
  afterAll(async () => {
    await h?.stop();
    await Promise.all(topics.map(deleteTopic));
  });

  it('keeps the trigger up and accounts for every record, never losing its session, within the RSS bound', async () => {
    const seed = Number(process.env.SLUICE_HOSTILE_SEED ?? Date.now() % 1_000_000);
    const batches = hostileBatches(seed);
    const kinds = new Map<string, number>();
    for (const b of batches) kinds.set(`${b.kind}/${b.codec}`, (kinds.get(`${b.kind}/${b.codec}`) ?? 0) + b.records.length * (b.repeat ?? 1));
    console.log(`[hostile] seed ${seed}: ${batches.length} batches, ${batches.reduce((n, b) => n + b.records.length * (b.repeat ?? 1), 0)} records: ${describeCounts(kinds)}`);

    const topic = uniqueName('hostile');
    const failed = `${topic}-failed`;
    topics.push(topic, failed);
    await createTopics([[topic, 8 * 1024 * 1024], [failed, 16 * 1024 * 1024]], PARTITIONS);
    const producing = Date.now();
    const expected = await produceAll(topic, batches, PARTITIONS);
    console.log(`[hostile] produced ${expected.size} records in ${((Date.now() - producing) / 1000).toFixed(1)} s`);

    if (engineUnderTest().engine === 'librdkafka') {
      // The bounds inside librdkafka and its binding are Sluice's patch (infra/patches/librdkafka.mjs, run at install).
      expect(rdkafkaPatch()).toEqual({ patched: true });
    }
    const run = await runToEnd({ label: 'hostile', topic, failed, expected, trigger: { batchSize: 50 }, started: (started) => (h = started) });
    expect(run.stopped).toEqual([]);
    expect(run.wrong).toEqual([]);
    expect(run.filtered.reported).toBeGreaterThanOrEqual(run.filtered.expected);
    expect(run.session).toEqual({ failedHeartbeats: 0, rebalances: 0, joins: 1 });
    expect(run.rss).toBeLessThan(RSS_BOUND);
    // A hang guard, not a speed target: producing takes a few seconds (kafkajs's own producer spent minutes on the batch of 100,000 records before Sluice's patch grouped a send's records in linear time).
  }, 480_000);
});
