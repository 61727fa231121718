/**
 * kill -9 of a poller process running 10 chunks of one partition at once, then a new poller
 * process in the same group (issue 28). 0 records are lost; the new process invokes exactly the
 * records the group's last commit at the kill did not mark done (none below its offset, none in
 * its metadata's done ranges), so the duplicates are exactly the records of the chunks in flight
 * at the kill and of those that had finished but whose commit had not landed, counted apart; and
 * each process runs a key's records in offset order, one invocation of a key at a time.
 */
import { mkdtempSync, watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeMetadata } from '../../framework/parallel/commit-metadata.ts';
import { cleanupAfterAll } from '../support/cleanup.ts';
import { runCli, type CliProcess } from '../support/cli.ts';
import { engineUnderTest, type Seen } from '../support/harness.ts';
import { brokers, createTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';
import { ascending, killReport, type ProcessRecord } from '../support/kill-oracle.ts';
import { checkKeyOrder, committedMetadata, intervalsFromOutput } from '../support/parallel-oracle.ts';

const COUNT = 1500;
const KEYS = 50;
const keyFor = (i: number) => (i % KEYS === KEYS - 1 ? null : `k${i % KEYS}`);
/** Its invocation runs SLOW_MS longer: while it runs, the committed offset stays at or below it and
 * the chunks done beyond it can only be in the commit's metadata, so the kill meets done ranges.
 * Its key's first chunk holds it (offsets 0, 50, …, 200), so it starts among the first ten: the
 * killed process's slow invocation must outlast sixty others started with cold workers on a loaded
 * machine (3 s did not on librdkafka in CI). The next process runs it at the common pace. */
const SLOW_OFFSET = 150;
const SLOW_MS = '15000';

function startPoller(env: Record<string, string>): CliProcess {
  return runCli('framework/cli/start.ts', ['--config', 'tests/fixtures/serverless-parallel.yml'], {
    env: { ...process.env, KAFKA_BROKERS: brokers().join(','), SLUICE_LOG_LEVEL: 'info', SLUICE_LOG_FORMAT: 'json', BATCH_SIZE: '5', SLEEP_MS: '100', SLEEP_VARY_MS: '200', SESSION_TIMEOUT_MS: '10000', ENGINE: engineUnderTest().engine, ...env },
  });
}

/** What the recorder handler of a process wrote: the invocations it started, and those that returned. */
async function recordOf(file: string): Promise<ProcessRecord> {
  // Complete lines only: the handler may be appending one while this reads (a line cut mid-write is not JSON yet).
  const lines = async (f: string) => {
    const text = await readFile(f, 'utf8').catch(() => '');
    return text.slice(0, text.lastIndexOf('\n') + 1).split('\n').filter(Boolean);
  };
  return { seen: (await lines(file)).map((l) => JSON.parse(l) as Seen), completed: await lines(`${file}.done`) };
}

describe('parallelizationFactor 10, poller killed', () => {
  const { topics, processes } = cleanupAfterAll();

  it('kill -9 mid-run, then a new process: 0 lost, nothing the last commit marked done invoked again', async () => {
    const topic = uniqueName('pf-kill9');
    const group = uniqueName('pf-kill9-g');
    topics.push(topic);
    await createTopic(topic, 1);
    await produce(topic, Array.from({ length: COUNT }, (_, i) => ({ key: keyFor(i), value: `v${i}`, partition: 0 })));
    const dir = mkdtempSync(join(tmpdir(), 'sluice-pf-kill-'));
    const files = { killed: join(dir, 'killed.jsonl'), next: join(dir, 'next.jsonl') };

    const killed = startPoller({ TEST_TOPIC: topic, TEST_GROUP: group, RECORD_FILE: files.killed, SLOW_OFFSETS: String(SLOW_OFFSET), SLOW_MS, TIMEOUT_S: '20' });
    processes.push(killed);
    const standing = async () => {
      const r = await recordOf(files.killed);
      const slow = r.seen.find((s) => Object.values(s.event.records).flat().some((x) => x.offset === SLOW_OFFSET));
      return { returned: r.completed.length, inFlight: r.seen.length - r.completed.length, slow: !slow ? 'not started' : r.completed.includes(slow.requestId) ? 'returned' : 'running' };
    };
    await waitFor(`60 invocations returned and 5 in flight, offset ${SLOW_OFFSET}'s among them`, async () => {
      const s = await standing();
      return s.returned >= 60 && s.inFlight >= 5 && s.slow === 'running';
    }, 60_000, 20, async () => JSON.stringify(await standing()));
    // The moment the next handler returns: its chunk is done, and its commit not sent yet.
    await new Promise<void>((resolve) => {
      const watcher = watch(`${files.killed}.done`, () => {
        killed.child.kill('SIGKILL');
        watcher.close();
        resolve();
      });
    });
    await killed.exited;
    const atKill = await committedMetadata(group, topic, 0);
    const decoded = decodeMetadata(atKill.metadata, atKill.offset);
    const ranges = decoded.kind === 'done' ? decoded.ranges : [];
    const killedRecord = await recordOf(files.killed);

    // Nothing commits for the dead member: the next process starts from this commit.
    expect(await committedMetadata(group, topic, 0)).toEqual(atKill);
    const next = startPoller({ TEST_TOPIC: topic, TEST_GROUP: group, RECORD_FILE: files.next });
    processes.push(next);
    await waitFor('all committed', async () => (await offsets(group, topic))[0]!.committed === COUNT, 120_000, 500);
    const final = await committedMetadata(group, topic, 0);
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);

    const nextRecord = await recordOf(files.next);
    const report = killReport(COUNT, killedRecord, { offset: atKill.offset, ranges }, nextRecord);
    const orderKilled = checkKeyOrder(killedRecord.seen, intervalsFromOutput(killed.output()));
    const orderNext = checkKeyOrder(nextRecord.seen, intervalsFromOutput(next.output()));
    const inRanges = ranges.reduce((n, r) => n + r.until - r.from + 1, 0);
    const inFlightDuplicates = report.duplicates.filter((o) => report.inFlight.records.includes(o)).length;
    console.log(
      `[parallel kill, ${engineUnderTest().engine}] ${COUNT} records, ${KEYS} keys; killed after ${killedRecord.completed.length} invocations returned, ${report.inFlight.invocations} in flight (${report.inFlight.records.length} records); ` +
        `last commit at the kill: offset ${atKill.offset} + ${inRanges} records in ${ranges.length} done ranges (${atKill.metadata?.length ?? 0} characters of metadata), ${report.doneAtKill} done in all; ` +
        `the next process invoked ${nextRecord.seen.length} times, ${report.duplicates.length} duplicates = ${inFlightDuplicates} in flight + ${report.duplicates.length - inFlightDuplicates} returned but not committed; ` +
        `lost ${report.lost.length}, done but invoked again ${report.doneInvokedAgain.length}, owed but not invoked ${report.owedNotInvoked.length}, done but not returned ${report.doneNotFinished.length}; ` +
        `at most ${orderKilled.maxInFlight} / ${orderNext.maxInFlight} at once, overlaps ${orderKilled.overlaps.length + orderNext.overlaps.length}, out of order ${orderKilled.outOfOrder.length + orderNext.outOfOrder.length + report.resumedBelowDone.length}`,
    );

    expect(decoded.kind).toBe('done'); // offset SLOW_OFFSET's chunk in flight: the commit carries done ranges beyond it, what this test is about
    expect(atKill.offset).toBeLessThanOrEqual(SLOW_OFFSET);
    expect(report.inFlight.invocations).toBeGreaterThan(0);
    expect(report.inFlight.invocations).toBeLessThanOrEqual(10);
    expect(report.lost).toEqual([]);
    expect(report.doneNotFinished).toEqual([]);
    expect(report.doneInvokedAgain).toEqual([]);
    expect(report.owedNotInvoked).toEqual([]);
    expect(report.twiceInOneProcess).toEqual([]);
    // The duplicates are exactly the records of the killed process that the commit had not marked done.
    expect(ascending(report.duplicates)).toEqual(ascending([...report.inFlight.records, ...report.finishedUncommitted]));
    expect(orderKilled.overlaps).toEqual([]);
    expect(orderKilled.outOfOrder).toEqual([]);
    expect(orderNext.overlaps).toEqual([]);
    expect(orderNext.outOfOrder).toEqual([]);
    expect(report.resumedBelowDone).toEqual([]);
    expect(orderKilled.maxInFlight).toBeGreaterThanOrEqual(5);
    expect(orderKilled.maxInFlight).toBeLessThanOrEqual(10);
    expect(final).toEqual({ offset: COUNT, metadata: null });
  });
});
