/**
 * Nothing dies silently. A consumer that crashes with a non-retriable error (here: lz4 batches
 * with kafkajs's LZ4 codec taken away, as every poller was before Sluice registered codecs)
 * turns /healthz to 503 naming the trigger, is restarted as a new member, consumes again once
 * the cause is gone, and past maxConsumerRestarts the process exits non-zero naming it.
 * /readyz is 503 until the group is joined; /healthz answers while a handler busy-loops.
 */
import { writeFileSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type CliProcess } from '../support/cli.ts';
import { brokers, createTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';
import { producePython } from '../support/python-producer.ts';
import { cleanupAfterAll } from '../support/cleanup.ts';

interface Probe {
  status: number;
  body: { status: string; reasons?: string[]; waitingFor?: string[]; triggers: Array<{ function: string; topic: string; state: string; restarts: number }> };
  ms: number;
}

async function get(url: string): Promise<Probe> {
  const t0 = performance.now();
  const res = await fetch(url);
  const body = (await res.json()) as Probe['body'];
  return { status: res.status, body, ms: performance.now() - t0 };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('health, restarts and exit', () => {
  const { topics, processes } = cleanupAfterAll();

  const poller = async (script: string, topic: string, env: Record<string, string>) => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'sluice-health-'));
    const p = runCli(script, ['--config', 'tests/fixtures/serverless.yml'], {
      env: { ...process.env, KAFKA_BROKERS: brokers().join(','), SLUICE_LOG_LEVEL: 'info', TEST_TOPIC: topic, TEST_GROUP: uniqueName('health-g'), RECORD_FILE: join(dir, 'seen.jsonl'), SLUICE_HTTP_PORT: String(port), ...env },
    });
    processes.push(p);
    return { p, url: `http://127.0.0.1:${port}`, dir };
  };
  const newTopic = async (prefix: string) => {
    const topic = uniqueName(prefix);
    topics.push(topic);
    await createTopic(topic, 1);
    return topic;
  };

  it('/readyz is 503 before the group is joined and 200 after; /healthz answers while a handler busy-loops', async () => {
    const topic = await newTopic('ready');
    const { p, url } = await poller('framework/cli/start.ts', topic, { BUSY_MS: '8000' });
    const seen: number[] = [];
    let notReady: Probe | undefined;
    await waitFor('/readyz 200', async () => {
      const r = await get(`${url}/readyz`).catch(() => undefined);
      if (r) seen.push(r.status);
      if (r?.status === 503) notReady ??= r;
      return r?.status === 200;
    }, 60_000, 20).catch(withOutput(p));
    console.log(`[readyz] ${seen.filter((s) => s === 503).length} × 503 then 200; while waiting: ${notReady?.body.waitingFor?.join('; ')}`);
    expect(notReady?.body.waitingFor).toEqual([expect.stringMatching(new RegExp(`^recorder ← ${topic} \\(group .*\\): starting$`))]);
    expect((await get(`${url}/healthz`)).status).toBe(200);

    await produce(topic, [{ value: 'busy' }]);
    await p.waitForOutput(/▸ recorder ← /, 30_000);
    const probes: Probe[] = [];
    for (let i = 0; i < 20; i++) {
      probes.push(await get(`${url}/healthz`));
      await new Promise((r) => setTimeout(r, 50));
    }
    const slowest = Math.max(...probes.map((x) => x.ms));
    console.log(`[healthz] 20 probes during an 8 s busy loop: slowest ${slowest.toFixed(1)} ms, statuses ${[...new Set(probes.map((x) => x.status))].join(',')}`);
    expect(probes.every((x) => x.status === 200)).toBe(true);
    // All 20 answered while the handler still blocked its thread: a poller blocked with it would have
    // answered none of them before the invocation ended.
    expect(p.output()).not.toMatch(/✓ recorder/);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it('a non-retriable crash: 503 naming the trigger, restarted as a new member, consuming again once mended', async () => {
    const topic = await newTopic('crash');
    const fixFile = join(mkdtempSync(join(tmpdir(), 'sluice-fix-')), 'fixed');
    const { p, url } = await poller('tests/support/poller-without-lz4.ts', topic, { LZ4_FIX_FILE: fixFile, MAX_CONSUMER_RESTARTS: '50' });
    await waitFor('/readyz 200', async () => (await get(`${url}/readyz`).catch(() => undefined))?.status === 200, 60_000, 50);

    const produced = Date.now();
    await producePython(topic, 'lz4', lz4Records(5));
    let failing: Probe | undefined;
    await waitFor('/healthz 503', async () => {
      const r = await get(`${url}/healthz`);
      if (r.status === 503) failing = r;
      return r.status === 503;
    }, 10_000, 50).catch(withOutput(p));
    const detectedMs = Date.now() - produced;
    expect(failing!.body.reasons).toEqual([expect.stringMatching(new RegExp(`^recorder ← ${topic} \\(group .*\\): consumer stopped, restarting: .*LZ4 compression not implemented`))]);

    const mended = Date.now();
    writeFileSync(fixFile, '');
    await waitFor('the 5 records committed', async () => (await offsets(uniqueGroupOf(p), topic))[0]!.committed === 5, 60_000);
    await waitFor('/healthz 200', async () => (await get(`${url}/healthz`)).status === 200, 30_000, 50);
    const recoveredMs = Date.now() - mended;
    const health = await get(`${url}/healthz`);
    console.log(`[crash] /healthz 503 ${detectedMs} ms after the lz4 batch was produced; consuming again and 200 ${recoveredMs} ms after the cause was mended (${health.body.triggers[0]!.restarts} restarts)`);
    expect(health.body.triggers[0]!.restarts).toBeGreaterThan(0);
    expect(p.output()).toMatch(/consumer stopped; restarting it as a new member in \d+\.\d s/);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it('past maxConsumerRestarts the process exits non-zero, naming the trigger and the cause', async () => {
    const topic = await newTopic('giveup');
    await producePython(topic, 'lz4', lz4Records(1));
    const started = Date.now();
    const { p } = await poller('tests/support/poller-without-lz4.ts', topic, { MAX_CONSUMER_RESTARTS: '2' });
    const code = await Promise.race([p.exited, new Promise((r) => setTimeout(r, 60_000)).then(() => withOutput(p)(new Error('still running after 60 s')))]);
    const tookMs = Date.now() - started;
    const last = p.output().trim().split('\n').pop();
    console.log(`[give-up] exited ${code} after ${tookMs} ms: ${last}`);
    expect(code).toBe(1);
    expect(last).toMatch(new RegExp(`^sluice: functions\\.recorder\\.events\\[0\\]\\.sluice \\(recorder ← ${topic}, group .*\\): the consumer stopped and 2 restarts in a row did not help\\. Last cause: .*LZ4 compression not implemented`));
    expect(p.output().match(/consumer stopped; restarting it as a new member/g)).toHaveLength(2);
  });
});

/** Compressible values: librdkafka sends a batch uncompressed when compressing would not make it smaller. */
const lz4Records = (n: number) => Array.from({ length: n }, (_, i) => ({ partition: 0, key: null, value: Buffer.from(`lz4-${i};`.repeat(200)) }));

/** A failed wait says what the poller printed. */
const withOutput = (p: CliProcess) => (e: Error) => {
  throw new Error(`${e.message}\npoller output:\n${p.output()}`);
};

/** The group the process was started with (TEST_GROUP), read back from its own log. */
function uniqueGroupOf(p: CliProcess): string {
  const m = /group=(health-g-[a-z0-9]+-[0-9a-f]+)/.exec(p.output());
  if (!m) throw new Error(`no group in the output:\n${p.output()}`);
  return m[1]!;
}
