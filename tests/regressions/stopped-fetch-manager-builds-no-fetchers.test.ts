/**
 * Issue 24, item 2: the hang that took the rejoin-inside-fetch scenario out of the fault tier.
 * A member was stopped right after a node stopped (the scenario removes a member while a node is
 * down). The node's leaving changed the broker list, so one of kafkajs's fetchers threw
 * KafkaJSFetcherRebalanceError; its fetch manager stopped the other fetchers (waiting for their
 * batches, chunks still running) and then built new ones. The consumer's stop() had come in
 * meanwhile: the new fetchers asked the stopped runner for a fetch, which answers [] at once
 * (runner.js: `if (!this.running) return []`), and looped on it in microtasks for ever. Nothing
 * else ran: no timer fired (the scenario's deadlines and vitest's timeout never reported), the
 * process sat at 100% CPU, and Runner.stop's `await this.waitForConsumer()` never returned (the
 * fault tier's 11th run here hung so in round 6: ~7 GB of "consumer not running, exiting" debug
 * lines in five minutes, 03:16:13 on). Sluice's kafkajs patch (infra/patches/kafkajs.mjs, 4th
 * change) makes a stopped fetch manager build no new fetchers.
 *
 * Reproduced here through kafkajs's own fetch manager, fetchers and worker queue, deterministically:
 * fetcher 1 is inside a batch, the broker list loses node 2, fetcher 2 throws, the manager waits for
 * fetcher 1, stop() comes in, the batch ends. Unlike the runner, this test's fetch yields to the
 * event loop before answering [], so the unpatched loop shows as fetches after stop() instead of
 * freezing the test process.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
type Batch = { topic: string; partition: number };
const createFetchManager = require('kafkajs/src/consumer/fetchManager') as (o: {
  logger: unknown; getNodeIds(): number[]; fetch(nodeId: number): Promise<Batch[]>; handler(batch: Batch): Promise<void>; concurrency: number;
}) => { start(): Promise<void>; stop(): Promise<void> };

const { KafkaJSFetcherRebalanceError } = require('kafkajs/src/errors') as { KafkaJSFetcherRebalanceError: new () => Error };
const quiet = { namespace: () => quiet, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const tick = () => new Promise<void>((r) => setImmediate(r));

describe('a fetch manager stopped while it rebuilds its fetchers after the brokers changed', () => {
  it('builds no new fetchers: start() ends, and nothing fetches after stop()', async () => {
    let nodeIds = [1, 2];
    let stopped = false;
    let fetchesAfterStop = 0;
    let endChunk!: () => void;
    const chunk = new Promise<void>((r) => (endChunk = r));
    let inChunk!: () => void;
    const chunkStarted = new Promise<void>((r) => (inChunk = r));
    let node1Fetches = 0;
    const manager = createFetchManager({
      logger: quiet,
      getNodeIds: () => nodeIds,
      concurrency: 2,
      // What the runner's fetch does: a batch while running; [] at once once it stopped.
      fetch: async (nodeId) => {
        await tick();
        if (stopped) {
          fetchesAfterStop++;
          return [];
        }
        if (nodeId === 1 && node1Fetches++ === 0) return [{ topic: 't', partition: 0 }];
        return [];
      },
      handler: async () => {
        inChunk();
        await chunk; // a chunk in flight
      },
    });

    const started = manager.start();
    const outcome = started.then(() => 'resolved', (e: unknown) => (e instanceof KafkaJSFetcherRebalanceError ? 'KafkaJSFetcherRebalanceError' : String(e)));
    await chunkStarted;
    nodeIds = [1]; // node 2 left the broker list: fetcher 2's next fetch throws KafkaJSFetcherRebalanceError
    for (let i = 0; i < 10; i++) await tick(); // ...and the manager now waits for fetcher 1's batch

    stopped = true; // the consumer's stop(): the runner no longer runs...
    const stopping = manager.stop(); // ...and stops the fetch manager
    endChunk();
    await stopping;
    const settled = await Promise.race([outcome, new Promise((r) => setTimeout(() => r('still running'), 1_000))]);
    const spun = fetchesAfterStop;
    await manager.stop(); // ends the fetchers an unpatched manager built, so this process can go on

    expect(spun, 'fetches the stopped runner was asked for (the unpatched loop)').toBe(0);
    expect(settled, "start() after stop(): it ends with the fetchers' error").toBe('KafkaJSFetcherRebalanceError');
  });
});
