/**
 * Issue 24, item 4: the kafka:// destination wrote each copy with the source record's
 * timestamp. A record that failed for its age, or a replay of old data, is older than the
 * destination's retention.ms, so its copy could be deleted at the next retention check, after
 * the source offset was committed past it: a loss. The copy must carry the send time as its
 * timestamp, and the original timestamp and its type in headers.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { FAILURE_HEADERS } from '../../framework/failure/failed-record.ts';
import { failurePolicy, startRecorder, type Harness } from '../support/harness.ts';
import { deleteTopic, offsets, produce, readTopic, uniqueName, waitFor, withAdmin } from '../support/kafka.ts';

const DAY_MS = 86_400_000;

describe('a kafka:// destination copy and retention', () => {
  const topic = uniqueName('old-record');
  const failed = `${topic}-failed`;
  let h: Harness | undefined;
  afterAll(async () => {
    await h?.stop();
    await deleteTopic(topic);
    await deleteTopic(failed);
  });

  it('a record a week old, sent for its age to a destination keeping a day: the copy is stamped when sent, the original timestamp in a header', async () => {
    // The source keeps records for ever: at the broker's default 7 days, a week-old record goes at its next retention check.
    await withAdmin((a) => a.ensureTopics([{ topic, partitions: 1, config: { 'retention.ms': '-1' } }, { topic: failed, partitions: 1, config: { 'retention.ms': String(DAY_MS) } }]));
    const producedAt = Date.now() - 7 * DAY_MS;
    await produce(topic, [{ key: 'k0', value: 'old', timestamp: producedAt }]);

    const startedAt = Date.now();
    h = await startRecorder({ topic, failure: failurePolicy({ maximumRecordAgeMs: 60_000, onFailure: { kind: 'kafka', uri: `kafka://${failed}`, topic: failed } }) });
    await waitFor('committed past it', async () => (await offsets(h!.trigger.consumerGroupId, topic))[0]!.committed === 1);
    const [copy] = await readTopic(failed, 1);
    const sentAt = Date.parse(copy!.headers[FAILURE_HEADERS.time]!.toString());
    console.log(`[old-record] produced ${new Date(producedAt).toISOString()}; copy stamped ${new Date(copy!.timestamp).toISOString()}, sent ${new Date(sentAt).toISOString()}; retention ${DAY_MS} ms`);
    expect(copy!.headers[FAILURE_HEADERS.reason]!.toString()).toBe('RecordAgeExceeded');
    expect(copy!.value!.toString()).toBe('old');
    // Younger than the destination's retention: not deletable at its next check.
    expect(copy!.timestamp).toBeGreaterThanOrEqual(startedAt); // duration-scan: allowed, two instants in causal order on one clock (stamped after the run began)
    expect(copy!.timestamp).toBeGreaterThan(Date.now() - DAY_MS); // duration-scan: allowed, a day's margin against a week-old stamp
    expect(copy!.headers[FAILURE_HEADERS.sourceTimestamp]?.toString()).toBe(String(producedAt));
    expect(copy!.headers[FAILURE_HEADERS.sourceTimestampType]?.toString()).toBe('CREATE_TIME');
    expect(h.seen()).toEqual([]);
  });
});
