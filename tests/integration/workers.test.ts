/**
 * The local invoker's workers, as Lambda's runtime behaves: a module load counts against the
 * invocation's timeout, a worker that died while idle is replaced without charging an
 * attempt, and handlers never see the poller's secrets.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAILURE_HEADERS } from '../../framework/failure/failed-record.ts';
import type { SluiceEvents } from '../../framework/observe/events.ts';
import { runCli, type CliProcess } from '../support/cli.ts';
import { failurePolicy as policy, recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { brokers, createTopic, offsets, produce, readTopic, uniqueName, waitFor, withAdmin } from '../support/kafka.ts';
import { cleanupAfterAll } from '../support/cleanup.ts';

const scratch = () => mkdtempSync(join(tmpdir(), 'sluice-workers-'));

describe('handler workers', () => {
  const { topics, harnesses, processes } = cleanupAfterAll();
  const withDestination = async (prefix: string) => {
    const topic = uniqueName(prefix);
    const failed = `${topic}-failed`;
    topics.push(topic, failed);
    await createTopic(topic, 1);
    await createTopic(failed, 1);
    return { topic, failed, onFailure: { kind: 'kafka' as const, uri: `kafka://${failed}`, topic: failed } };
  };
  const chunkEnds = (h: Harness) => {
    const ends: Array<SluiceEvents['poller.chunk_end']> = [];
    h.events.on('poller.chunk_end', (e) => ends.push(e));
    return ends;
  };

  it('a module that never finishes loading times each invocation out at the function timeout, retried per policy', async () => {
    const { topic, failed, onFailure } = await withDestination('hang-load');
    const marker = join(scratch(), 'hang');
    writeFileSync(marker, '');
    const h = await startRecorder({ topic, batchSize: 1, timeoutMs: 1_500, failure: policy({ maximumRetryAttempts: 1, onFailure }), env: { HANG_ON_LOAD_FILE: marker } });
    harnesses.push(h);
    const ends = chunkEnds(h);
    await produce(topic, [{ key: 'k0', value: 'v0' }]);
    const [dead] = await readTopic(failed, 1, 30_000);
    console.log(`[hang-load] ${ends.length} invocations: ${ends.map((e) => `${e.durationMs} ms ${e.error}`).join('; ')}`);
    expect(ends.map((e) => e.attempt)).toEqual([1, 2]);
    for (const e of ends) {
      expect(e.ok).toBe(false);
      // The function timeout's own message, not the wall time: a timer may fire a millisecond early (1,499 ms was seen).
      expect(e.error).toMatch(/Task timed out after 1\.50 seconds \(the handler module had not finished loading/);
    }
    expect(dead!.key!.toString()).toBe('k0');
    expect(dead!.headers[FAILURE_HEADERS.reason]!.toString()).toBe('RetryAttemptsExhausted');
    expect(h.seen()).toEqual([]); // the handler never ran

    // Once the module can load, the next record runs on a fresh worker.
    rmSync(marker);
    await produce(topic, [{ key: 'k1', value: 'v1' }]);
    await waitFor('offset 1 invoked and committed', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]!.committed === 2, 30_000);
    expect(h.seen().flatMap(recordsOf).map((r) => r.offset)).toEqual([1]);
  });

  it('SIGTERM while a module hangs in its load: the process exits cleanly instead of waiting for the load', async () => {
    const topic = uniqueName('hang-stop');
    topics.push(topic);
    await createTopic(topic, 1);
    const dir = scratch();
    const marker = join(dir, 'hang');
    writeFileSync(marker, '');
    const poller = runCli('framework/cli/start.ts', ['--config', 'tests/fixtures/serverless.yml'], {
      env: { ...process.env, KAFKA_BROKERS: brokers().join(','), SLUICE_LOG_LEVEL: 'info', TEST_TOPIC: topic, TEST_GROUP: uniqueName('hang-stop-g'), RECORD_FILE: join(dir, 'seen.jsonl'), HANG_ON_LOAD_FILE: marker, FUNCTION_TIMEOUT: '5' },
    });
    processes.push(poller);
    await poller.waitForOutput(/did not finish loading within its 5 s timeout/, 60_000);
    await poller.waitForOutput(/ready\. Send records/, 60_000);
    await produce(topic, [{ value: 'v0' }]);
    await poller.waitForOutput(/▸ recorder ← /, 30_000);
    const signalled = Date.now();
    poller.child.kill('SIGTERM');
    const code = await poller.exited;
    const tookMs = Date.now() - signalled;
    console.log(`[hang-stop] SIGTERM mid-load: exited ${code} after ${tookMs} ms`);
    // The module never finishes loading: a stop that waited for it would never exit.
    expect(code).toBe(0);
  });

  it('a worker that died while idle is replaced before the next chunk, which is not charged an attempt', async () => {
    const { topic, failed, onFailure } = await withDestination('idle-death');
    const h = await startRecorder({ topic, batchSize: 1, failure: policy({ maximumRetryAttempts: 0, onFailure }), env: { THROW_AFTER_RETURN_MS: '100' } });
    harnesses.push(h);
    const ends = chunkEnds(h);
    await produce(topic, [{ value: 'v0' }]);
    await waitFor('the stray timer threw', () => existsSync(`${h.recordFile}.stray`), 30_000);
    await new Promise((r) => setTimeout(r, 300));
    await produce(topic, [{ value: 'v1' }]);
    await waitFor('both committed', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]!.committed === 2, 30_000);
    console.log(`[idle-death] ${ends.map((e) => `offset ${e.firstOffset} attempt ${e.attempt} ${e.ok ? 'ok' : e.error}`).join('; ')}`);
    expect(ends.map((e) => [e.firstOffset, e.attempt, e.ok])).toEqual([[0, 1, true], [1, 1, true]]);
    expect(h.seen().flatMap(recordsOf).map((r) => r.offset)).toEqual([0, 1]);
    expect((await withAdmin((a) => a.offsets('nobody', failed)))[0]!.logEnd).toBe(0);
  });

  it("handlers see the function's environment and Lambda's, never the poller's SLUICE_ secrets", async () => {
    const topic = uniqueName('env');
    topics.push(topic);
    await createTopic(topic, 1);
    const envFile = join(scratch(), 'env.json');
    process.env.SLUICE_SECRET_KAFKA_PASSWORD = 'hunter2';
    try {
      const h = await startRecorder({ topic, env: { ENV_FILE: envFile, TABLE: 'orders' } });
      harnesses.push(h);
    } finally {
      delete process.env.SLUICE_SECRET_KAFKA_PASSWORD;
    }
    const names = JSON.parse(readFileSync(envFile, 'utf8')) as string[];
    console.log(`[env] the handler sees ${names.length} variables, ${names.filter((n) => n.startsWith('SLUICE_')).length} of them SLUICE_*`);
    expect(names.filter((n) => n.startsWith('SLUICE_'))).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(['TABLE', 'RECORD_FILE', 'AWS_LAMBDA_FUNCTION_NAME', 'AWS_REGION', 'LAMBDA_TASK_ROOT', 'PATH']));
  });
});
