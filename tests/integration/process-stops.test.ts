/**
 * The poller as a real process, stopped the two ways production stops it.
 * kill -9 mid-chunk: after a restart every record is processed, and only the killed chunk's
 * records are invoked twice. SIGTERM mid-invocation: the invocation finishes, its offset is
 * committed, the member leaves, and the other member takes over without waiting for the
 * session timeout.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordsOf, startRecorder, type Harness, type Seen } from '../support/harness.ts';
import { runCli, type CliProcess } from '../support/cli.ts';
import { brokers, createTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';
import { cleanupAfterAll } from '../support/cleanup.ts';

const key = (r: { partition: number; offset: number }) => `${r.partition}:${r.offset}`;

function startPollerProcess(env: Record<string, string>): CliProcess {
  return runCli('framework/cli/start.ts', ['--config', 'tests/fixtures/serverless.yml'], {
    env: { ...process.env, KAFKA_BROKERS: brokers().join(','), SLUICE_LOG_LEVEL: 'info', ...env },
  });
}

describe('poller process stops', () => {
  const { topics, harnesses, processes } = cleanupAfterAll();

  it('kill -9 mid-chunk, then restart: all processed, only the killed chunk invoked twice', async () => {
    const topic = uniqueName('kill9');
    const group = uniqueName('kill9-g');
    topics.push(topic);
    await createTopic(topic, 1);
    await produce(topic, Array.from({ length: 100 }, (_, i) => ({ value: `v${i}` })));
    const recordFile = join(mkdtempSync(join(tmpdir(), 'sluice-kill-')), 'seen.jsonl');

    const poller = startPollerProcess({ TEST_TOPIC: topic, TEST_GROUP: group, RECORD_FILE: recordFile, SLEEP_MS: '500', SESSION_TIMEOUT_MS: '10000' });
    processes.push(poller);
    const probe = await startRecorderReader(recordFile);
    await waitFor('three chunks done and a fourth in flight', () => probe.completed().length >= 3 && probe.seen().length > probe.completed().length, 60_000);
    poller.child.kill('SIGKILL');
    await poller.exited;
    const seenAtKill = probe.seen();
    const committedAtKill = (await offsets(group, topic))[0]!.committed;
    const inFlight = seenAtKill.flatMap(recordsOf).filter((r) => r.offset >= committedAtKill);

    const restarted = await startRecorder({ topic, consumerGroupId: group, batchSize: 10, sessionTimeoutMs: 10_000, recordFile });
    harnesses.push(restarted);
    await waitFor('all committed', async () => (await offsets(group, topic))[0]!.committed === 100, 90_000);

    const delivered = restarted.seen().flatMap(recordsOf);
    const counts = new Map<string, number>();
    for (const r of delivered) counts.set(key(r), (counts.get(key(r)) ?? 0) + 1);
    const twice = [...counts].filter(([, n]) => n > 1).map(([k]) => k);
    console.log(`[kill -9] committed ${committedAtKill} at the kill; in flight: offsets ${inFlight.map((r) => r.offset).join(',')}; invoked twice: ${twice.length} records`);
    expect(counts.size).toBe(100);
    expect([...counts.values()].every((n) => n <= 2)).toBe(true);
    expect(inFlight.length).toBeGreaterThan(0);
    expect(inFlight.length).toBeLessThanOrEqual(10);
    expect(twice.sort()).toEqual(inFlight.map(key).sort());
  });

  it('SIGTERM mid-invocation: finishes, commits, leaves; the other member takes over before the session timeout', async () => {
    const topic = uniqueName('sigterm');
    const group = uniqueName('sigterm-g');
    topics.push(topic);
    await createTopic(topic, 2);
    const recordFile = join(mkdtempSync(join(tmpdir(), 'sluice-term-')), 'seen.jsonl');
    // Long enough that a takeover inside half of it can only come from A leaving the group, not from its session expiring.
    const sessionTimeoutMs = 90_000;

    const a = startPollerProcess({ TEST_TOPIC: topic, TEST_GROUP: group, RECORD_FILE: recordFile, SLEEP_MS: '8000', SESSION_TIMEOUT_MS: String(sessionTimeoutMs) });
    processes.push(a);
    await a.waitForOutput(/ready\. Send records/, 60_000);
    const b = await startRecorder({ topic, consumerGroupId: group, batchSize: 10, sessionTimeoutMs, recordFile });
    harnesses.push(b);
    await waitFor('the partitions split', () => (b.joins.at(-1)?.assignment[topic]?.length ?? 0) === 1, 30_000);
    const aPartition = 1 - b.joins.at(-1)!.assignment[topic]![0]!;

    await produce(topic, [{ value: 'for-a', partition: aPartition }]);
    await waitFor('A inside its invocation', () => b.seen().some((s) => recordsOf(s)[0]!.partition === aPartition), 30_000);
    const aInvocation = b.seen().find((s: Seen) => recordsOf(s)[0]!.partition === aPartition)!;
    a.child.kill('SIGTERM');
    const exitCode = await a.exited;
    const exitedAt = Date.now();
    await waitFor('B owns both partitions (A left the group: its session had not expired)', () => (b.joins.at(-1)?.assignment[topic]?.length ?? 0) === 2, sessionTimeoutMs / 2);
    const takeoverMs = b.joins.at(-1)!.at - exitedAt;
    const committed = await offsets(group, topic);

    console.log(`[SIGTERM] A exited ${exitCode} after finishing its invocation; B took both partitions ${takeoverMs} ms after A exited (session timeout ${sessionTimeoutMs} ms)`);
    expect(exitCode).toBe(0);
    expect(b.completed()).toContain(aInvocation.requestId);
    expect(committed.find((p) => p.partition === aPartition)!.committed).toBe(1);
    // B does not invoke A's record again.
    expect(b.seen().filter((s) => recordsOf(s)[0]!.partition === aPartition)).toHaveLength(1);
  });
});

/** Reads a record file written by another process's recorder. */
async function startRecorderReader(recordFile: string) {
  const { readFileSync, existsSync } = await import('node:fs');
  const lines = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter(Boolean) : []);
  return {
    seen: () => lines(recordFile).map((l) => JSON.parse(l) as Seen),
    completed: () => lines(`${recordFile}.done`),
  };
}
