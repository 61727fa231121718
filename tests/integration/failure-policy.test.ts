/**
 * AWS's failure policy against the real broker, counted by what the handler saw, what the
 * group committed and what landed in the destination topic: nothing lost, nothing skipped.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { FAILURE_HEADERS } from '../../framework/failure/failed-record.ts';
import { failurePolicy as policy, recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, readTopic, uniqueName, waitFor } from '../support/kafka.ts';

describe('failure policy', () => {
  const topics: string[] = [];
  const harnesses: Harness[] = [];
  afterAll(async () => {
    await Promise.all(harnesses.map((h) => h.stop()));
    await Promise.all(topics.map(deleteTopic));
  });

  /** A source topic with `count` records (key k<i>, value v<i>, a header), and its destination topic. */
  const setup = async (prefix: string, count: number, timestamp?: (i: number) => number) => {
    const topic = uniqueName(prefix);
    const failed = `${topic}-failed`;
    topics.push(topic, failed);
    await createTopic(topic, 1);
    await createTopic(failed, 1);
    await produce(topic, Array.from({ length: count }, (_, i) => ({ key: `k${i}`, value: Buffer.from([0xff, i]), headers: [['trace', `t${i}`]], ...(timestamp ? { timestamp: timestamp(i) } : {}) })));
    return { topic, failed, onFailure: { kind: 'kafka' as const, uri: `kafka://${failed}`, topic: failed } };
  };
  const run = async (o: Parameters<typeof startRecorder>[0]) => {
    const h = await startRecorder(o);
    harnesses.push(h);
    return h;
  };
  const committedTo = (h: Harness, topic: string, n: number) => waitFor(`committed ${n}`, async () => (await offsets(h.trigger.consumerGroupId, topic))[0]!.committed === n, 90_000);
  const timesInvoked = (h: Harness, offset: number) => h.seen().filter((s) => recordsOf(s).some((r) => r.offset === offset)).length;

  it('bisects down to a poison record and sends only it, byte for byte, to the destination', async () => {
    const { topic, failed, onFailure } = await setup('bisect', 20);
    const h = await run({ topic, batchSize: 20, failure: policy({ bisectBatchOnFunctionError: true, maximumRetryAttempts: 0, onFailure }), env: { POISON_OFFSETS: '13' } });
    await committedTo(h, topic, 20);
    const [dead] = await readTopic(failed, 1);
    const succeeded = h.seen().filter((s) => !recordsOf(s).some((r) => r.offset === 13)).flatMap(recordsOf).map((r) => r.offset);
    console.log(`[bisect] ${h.seen().length} invocations; succeeded ${succeeded.length} records; destination got offset ${dead!.headers[FAILURE_HEADERS.offset]}`);
    expect(dead!.key!.toString()).toBe('k13');
    expect([...dead!.value!]).toEqual([0xff, 13]);
    expect(dead!.headers.trace!.toString()).toBe('t13');
    expect(dead!.headers[FAILURE_HEADERS.reason]!.toString()).toBe('RetryAttemptsExhausted');
    expect(dead!.headers[FAILURE_HEADERS.topic]!.toString()).toBe(topic);
    expect(dead!.headers[FAILURE_HEADERS.error]!.toString()).toMatch(/poison record/);
    expect(new Set(succeeded)).toEqual(new Set([...Array(20).keys()].filter((o) => o !== 13)));
    expect((await readTopic(failed, 1)).length).toBe(1);
  });

  it('maximumRetryAttempts 2: the failing record is invoked exactly 3 times, then sent', async () => {
    const { topic, failed, onFailure } = await setup('retries', 8);
    const h = await run({ topic, batchSize: 1, failure: policy({ maximumRetryAttempts: 2, onFailure }), env: { POISON_OFFSETS: '5' } });
    await committedTo(h, topic, 8);
    const [dead] = await readTopic(failed, 1);
    console.log(`[retries] offset 5 invoked ${timesInvoked(h, 5)} times; destination attempts header ${dead!.headers[FAILURE_HEADERS.attempts]}`);
    expect(timesInvoked(h, 5)).toBe(3);
    expect(dead!.headers[FAILURE_HEADERS.attempts]!.toString()).toBe('3');
    expect(dead!.headers[FAILURE_HEADERS.offset]!.toString()).toBe('5');
  });

  it('-1 retries with maximumRecordAgeInSeconds 60: sent once the record is older than 60 s', async () => {
    // 10 s of the record's 60 left: the first invocation must come before its age passes 60 s, and a
    // poller starting on a loaded machine took 3.4 s (CI-28, with 3 s left: invoked once, then sent).
    const producedAt = Date.now() - 50_000;
    const { topic, failed, onFailure } = await setup('age', 3, () => producedAt);
    const h = await run({ topic, batchSize: 1, failure: policy({ maximumRecordAgeMs: 60_000, onFailure }), env: { POISON_OFFSETS: '1' } });
    await committedTo(h, topic, 3);
    const [dead] = await readTopic(failed, 1);
    const sentAfterMs = Date.parse(dead!.headers[FAILURE_HEADERS.time]!.toString()) - producedAt;
    console.log(`[age] offset 1 invoked ${timesInvoked(h, 1)} times, sent ${sentAfterMs} ms after its timestamp`);
    // Retried until its age passed 60 s (the reason says which bound gave up), not sent at its first failure.
    expect(dead!.headers[FAILURE_HEADERS.reason]!.toString()).toBe('RecordAgeExceeded');
    // duration-scan: allowed, the product's own send stamp against the record's timestamp: its decision, nothing the test timed
    expect(sentAfterMs).toBeGreaterThan(60_000);
    expect(timesInvoked(h, 1)).toBeGreaterThan(1);
    expect(dead!.headers[FAILURE_HEADERS.attempts]!.toString()).toBe(String(timesInvoked(h, 1)));
    expect(timesInvoked(h, 1)).toBeLessThanOrEqual(11);
  });

  it('ReportBatchItemFailures: records before the lowest failed offset are not invoked again', async () => {
    const topic = uniqueName('rbif');
    topics.push(topic);
    await createTopic(topic, 1);
    await produce(topic, Array.from({ length: 10 }, (_, i) => ({ value: `v${i}` })));
    const h = await run({ topic, batchSize: 10, failure: policy({ reportBatchItemFailures: true }), env: { REPORT_FAILED_OFFSET: '4' } });
    await committedTo(h, topic, 10);
    const invocations = h.seen().map((s) => recordsOf(s).map((r) => r.offset));
    console.log(`[rbif] invocations: ${JSON.stringify(invocations)}`);
    expect(invocations).toEqual([[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [4, 5, 6, 7, 8, 9]]);
  });

  it('a malformed partial batch response fails the whole chunk', async () => {
    const { topic, failed, onFailure } = await setup('malformed', 2);
    const response = JSON.stringify({ batchItemFailures: [{ itemIdentifier: { partition: 'elsewhere-0', offset: 0 } }] });
    const h = await run({ topic, batchSize: 2, failure: policy({ reportBatchItemFailures: true, maximumRetryAttempts: 1, onFailure }), env: { RESPONSE_JSON: response } });
    await committedTo(h, topic, 2);
    const dead = await readTopic(failed, 2);
    expect(h.seen()).toHaveLength(2);
    expect(dead.map((d) => d.headers[FAILURE_HEADERS.error]!.toString())).toEqual([expect.stringMatching(/malformed partial batch response.*elsewhere-0/), expect.stringMatching(/malformed/)]);
  });

  it('a timed-out invocation is a failure and follows the same policy', async () => {
    const { topic, failed, onFailure } = await setup('timeout-policy', 3);
    const h = await run({ topic, batchSize: 1, timeoutMs: 1_000, failure: policy({ maximumRetryAttempts: 1, onFailure }), env: { TIMEOUT_OFFSETS: '0' } });
    await committedTo(h, topic, 3);
    const [dead] = await readTopic(failed, 1);
    expect(timesInvoked(h, 0)).toBe(2);
    expect(dead!.headers[FAILURE_HEADERS.error]!.toString()).toMatch(/timeout: TimeoutError: Task timed out after 1\.00 seconds/);
    expect(timesInvoked(h, 1)).toBe(1);
  });
});
