/**
 * The model-based test of parallelizationFactor's state machine (issue 39): ParallelPartitions
 * itself, not only its parts, over a partition log and a group commit of the test's making
 * (tests/support/parallel-log.ts), driven by random operations: records appended under a few
 * keys and transaction markers (offsets no reader gets, also at the log's end), batches of random sizes fetched from wherever the last run said to fetch (read-ahead,
 * refetches of held work), rejoins, restarts of the whole poller from the group's commit and
 * metadata, poison records (bisected down to themselves and sent to the destination; the handler
 * throws, or reports them with ReportBatchItemFailures), commits the coordinator refuses at random,
 * chunks that end out of order, `ordering: unordered`, and a payload limit that cuts chunks by bytes. After every operation
 * the oracle checks what the group holds:
 *
 *   1. no committed offset passes a record not finished (invoked successfully, or sent to the
 *      destination), and no range the commit's metadata marks done holds one;
 *   2. within one poller, a key's records finish in offset order;
 *   3. within one poller, no record runs again once it finished (a restart may run again what
 *      it finished and had not committed: that is the cause such a repeat may have);
 *
 * and once the operations end and the log is drained, every record finished, once per poller,
 * the commit is past the last record, and only poison records went to the destination.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parallelLog } from '../../tests/support/parallel-log.ts';
import { decodeMetadata } from './commit-metadata.ts';

const KEYS = ['a', 'b', 'c', 'd', 'e'];

type Op =
  | { t: 'append'; keys: string[] }
  | { t: 'marker' }
  | { t: 'batch'; max: number }
  | { t: 'rejoin' }
  | { t: 'restart' };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ t: fc.constant('append' as const), keys: fc.array(fc.constantFrom(...KEYS), { minLength: 1, maxLength: 8 }) }) },
  { weight: 1, arbitrary: fc.constant({ t: 'marker' as const }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('batch' as const), max: fc.integer({ min: 1, max: 20 }) }) },
  { weight: 1, arbitrary: fc.constant({ t: 'rejoin' as const }) },
  { weight: 1, arbitrary: fc.constant({ t: 'restart' as const }) },
);

const scenario = fc.record({
  factor: fc.integer({ min: 2, max: 5 }),
  batchSize: fc.integer({ min: 1, max: 4 }),
  /** How failures are told: the invocation throws, or it returns the poison records in batchItemFailures. */
  report: fc.boolean(),
  unordered: fc.boolean(),
  /** Lambda's payload limit: none, or room for about 1 to 3 of these records beside the envelope. */
  maxPayloadBytes: fc.option(fc.integer({ min: 150, max: 700 }), { nil: undefined }),
  poison: fc.uniqueArray(fc.integer({ min: 0, max: 80 }), { maxLength: 6 }),
  /** Whether each commit is refused, in turn (cycled). */
  refusals: fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
  /** How many event-loop turns each invocation takes, by its first offset (cycled): chunks end out of order. */
  hops: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 16 }),
  ops: fc.array(op, { minLength: 1, maxLength: 30 }),
});

/** What the generated cases drove, summed over a run: so the line below shows each shape was met. */
const seen = { partialReports: 0, sentAside: 0, refused: 0, restarts: 0, unorderedCases: 0, payloadCases: 0 };

/** Runs one scenario, checking the oracle after every operation; returns how many steps it checked. */
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

async function run(s: Scenario): Promise<number> {
  let refusing = true;
  let commitsAsked = 0;
  const poison = new Set(s.poison);
  const p = parallelLog({
    factor: s.factor, batchSize: s.batchSize, maximumRetryAttempts: 0, bisectBatchOnFunctionError: true,
    fails: (offsets) => offsets.some((o) => poison.has(o)),
    ...(s.report ? { report: { poison: (o: number) => poison.has(o) } } : {}),
    ...(s.unordered ? { ordering: 'unordered' as const } : {}),
    ...(s.maxPayloadBytes !== undefined ? { maxPayloadBytes: s.maxPayloadBytes } : {}),
    refuse: () => refusing && s.refusals[commitsAsked++ % s.refusals.length]!,
    gate: async (offsets) => {
      for (let i = 0; i < s.hops[offsets[0]! % s.hops.length]!; i++) await new Promise((r) => setImmediate(r));
    },
  });

  /** Offsets finished (invoked ok or sent), in the order they finished, per owner. */
  const check = (step: string) => {
    const finished = new Set<number>([...p.sent]);
    for (const v of p.invocations) for (const o of v.finished) finished.add(o);
    // A transaction marker holds no record to finish: nothing to lose there.
    for (let o = 0; o < p.size(); o++) if (!p.isRecord(o)) finished.add(o);
    const group = p.group();
    const committed = group?.offset ?? 0;
    for (let o = 0; o < Math.min(committed, p.size()); o++) expect(finished.has(o), `${step}: committed ${committed} passes offset ${o}, not finished`).toBe(true);
    const decoded = decodeMetadata(group?.metadata ?? null, committed);
    if (decoded.kind === 'done') {
      for (const r of decoded.ranges) for (let o = r.from; o <= r.until && o < p.size(); o++) expect(finished.has(o), `${step}: metadata marks ${o} done, not finished`).toBe(true);
    } else expect(['none'], `${step}: metadata ${group?.metadata}`).toContain(decoded.kind);
    // Per owner: nothing runs again once it finished, and (ordered by key) a key's records finish in offset order.
    const byOwner = new Map<number, typeof p.invocations>();
    for (const v of p.invocations) byOwner.set(v.owner, [...(byOwner.get(v.owner) ?? []), v]);
    for (const [owner, runs] of byOwner) {
      const done = new Set<number>();
      const lastByKey = new Map<string, number>();
      for (const v of runs) {
        for (const o of v.offsets) expect(done.has(o), `${step}: owner ${owner} ran offset ${o} again after it finished`).toBe(false);
        for (const o of v.finished) {
          done.add(o);
          if (s.unordered) continue;
          const k = p.keyOf(o);
          expect(o, `${step}: owner ${owner} finished ${o} of key ${k} after ${lastByKey.get(k)}`).toBeGreaterThan(lastByKey.get(k) ?? -1);
          lastByKey.set(k, o);
        }
      }
    }
  };

  let steps = 0;
  for (const [i, o] of s.ops.entries()) {
    if (o.t === 'append') p.append(o.keys);
    else if (o.t === 'marker') p.appendMarker();
    else if (o.t === 'batch') await p.batch(o.max);
    else if (o.t === 'rejoin') p.rejoin();
    else p.restart();
    check(`step ${i} (${o.t})`);
    steps++;
  }
  // Drain: the coordinator accepts again; batches until the last record is committed (markers after
  // it bring no batch, on any engine: the commit may stay below them).
  refusing = false;
  const records = Array.from({ length: p.size() }, (_, o) => o).filter(p.isRecord);
  const lastRecordEnd = records.length ? records.at(-1)! + 1 : 0;
  for (let i = 0; i < 200 && (p.group()?.offset ?? 0) < lastRecordEnd; i++) await p.batch(20);
  check('drained');
  seen.partialReports += p.invocations.filter((v) => v.finished.length > 0 && v.finished.length < v.offsets.length).length;
  seen.sentAside += p.sent.length;
  seen.refused += p.commits.filter((c) => c.answer === 'refused').length;
  seen.restarts += s.ops.filter((o) => o.t === 'restart').length;
  if (s.unordered) seen.unorderedCases++;
  if (s.maxPayloadBytes !== undefined) seen.payloadCases++;
  expect(p.group()?.offset ?? 0).toBeGreaterThanOrEqual(lastRecordEnd);
  const finished = new Set<number>([...p.sent]);
  for (const v of p.invocations) for (const o of v.finished) finished.add(o);
  expect(finished.size).toBe(records.length);
  for (const o of p.sent) expect(poison.has(o), `offset ${o} sent to the destination without being poison`).toBe(true);
  return steps + 1;
}

describe('ParallelPartitions, model-based', () => {
  it('never commits past a record not finished, keeps each key in order, runs nothing twice within a poller, and drains', async () => {
    let cases = 0;
    let steps = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        steps += await run(s);
        cases++;
      }),
      { numRuns: Number(process.env.SLUICE_MODEL_RUNS ?? 1_000) },
    );
    console.log(`[parallel model] ${cases} generated cases, ${steps} steps checked; ${JSON.stringify(seen)}`);
  });
});
