import { describe, expect, it } from 'vitest';
import { Instrumentation } from './events.ts';
import { attachTerminalView, retryIn } from './terminal-view.ts';

const retry = (attempt: number, untilSuccess: boolean) => ({
  functionName: 'orders', topic: 'orders', partition: 0, offset: 4, attempt, delayMs: 500, ...(untilSuccess ? { untilSuccess: true as const } : {}),
});

describe('the terminal view', () => {
  it('names what holds the partitions when a join assigns none, and how long a member that is gone may keep them', () => {
    const events = new Instrumentation();
    const lines: string[] = [];
    attachTerminalView(events, (l) => lines.push(l));
    events.emit('group.join', { groupId: 'g', memberId: 'm', isLeader: false, assignment: { orders: [] }, durationMs: 3 });
    events.emit('group.join', { groupId: 'g', memberId: 'm', isLeader: false, assignment: { orders: [0, 2] }, durationMs: 4 });
    expect(lines[0]).toContain("assigned no partitions: the group's other members hold them all (status shows who)");
    expect(lines[0]).toContain('as a static member (groupInstanceId) does, keeps its partitions until its session timeout ends (45 s by default)');
    expect(lines[1]).toMatch(/joined as member, assigned orders\[0,2\] \(4 ms\)$/);
  });

  it('says when acknowledgements were not applied (their records come again) or their fate is unknown, and nothing when they were; JSON lines say all', () => {
    const events = new Instrumentation();
    const lines: string[] = [];
    const json: string[] = [];
    attachTerminalView(events, (l) => lines.push(l));
    attachTerminalView(events, (l) => json.push(l), 'json');
    const base = { functionName: 'orders', topic: 'orders', partition: 2 };
    events.emit('queue.ack_result', { ...base, ranges: [{ from: 0, until: 9, type: 'accept' }], outcome: 'applied' });
    events.emit('queue.ack_result', { ...base, ranges: [{ from: 10, until: 12, type: 'accept' }, { from: 13, until: 13, type: 'release' }], outcome: 'refused', error: '76 INVALID_RECORD_STATE' });
    events.emit('queue.ack_result', { ...base, ranges: [{ from: 14, until: 14, type: 'accept' }], outcome: 'unknown', error: 'connection closed' });
    expect(lines.map((l) => l.slice(l.indexOf('!')))).toEqual([
      '! orders orders-2: 4 acknowledgements refused (76 INVALID_RECORD_STATE): delivered again',
      '! orders orders-2: 1 acknowledgement in flight when a request failed (connection closed): sent again',
    ]);
    expect(json.map((l) => JSON.parse(l).outcome)).toEqual(['applied', 'refused', 'unknown']);
  });

  it('says when a retry runs: its backoff, then up to the fetch wait until its next fetch (a quiet topic waits it out)', () => {
    const events = new Instrumentation();
    const lines: string[] = [];
    attachTerminalView(events, (l) => lines.push(l));
    events.emit('poller.retry_scheduled', { ...retry(1, false), delayMs: 400, fetchWaitMs: 1_000 });
    events.emit('poller.retry_scheduled', { ...retry(2, false), delayMs: 2_300 });
    expect(lines.map((l) => l.slice(l.indexOf('↻')))).toEqual([
      '↻ orders orders-0 retries offset 4 in 0.4–1.4 s (its backoff, then its next fetch)',
      '↻ orders orders-0 retries offset 4 in 2.3 s',
    ]);
    expect(retryIn(500, 0)).toBe('0.5 s');
  });

  it('suggests a retry limit and a destination once, when a record keeps failing under endless retries', () => {
    const events = new Instrumentation();
    const lines: string[] = [];
    attachTerminalView(events, (l) => lines.push(l));
    for (let attempt = 1; attempt <= 5; attempt++) events.emit('poller.retry_scheduled', retry(attempt, true));
    const hints = lines.filter((l) => l.includes('hint:'));
    expect(hints).toHaveLength(1);
    expect(lines.indexOf(hints[0]!)).toBe(3); // after the third ↻ line
    expect(hints[0]).toContain('set maximumRetryAttempts (e.g. 2) and destinationConfig.onFailure.destination');
  });

  it('with parallelizationFactor, says that the key waits, and each commit once with what is done beyond it', () => {
    const events = new Instrumentation();
    const lines: string[] = [];
    attachTerminalView(events, (l) => lines.push(l));
    for (let attempt = 1; attempt <= 3; attempt++) events.emit('poller.retry_scheduled', { ...retry(attempt, true), keyWaits: true });
    expect(lines.find((l) => l.includes('hint:'))).toContain('so it waits meanwhile with the later records of its key (none under ordering: unordered), and its partition once the commit metadata\'s window beyond it is done (24,432 offsets at Kafka\'s default offset.metadata.max.bytes)');
    const commit = (offset: number, doneBeyond: number) =>
      events.emit('poller.commit', { functionName: 'orders', groupId: 'g', topic: 'orders', partition: 0, offset, durationMs: 1, metadataBytes: doneBeyond ? 20 : 0, doneBeyond });
    lines.length = 0;
    commit(6, 3);
    commit(6, 3); // the metadata changed, not what it counts
    commit(6, 5);
    commit(12, 0);
    expect(lines.map((l) => l.replace(/^.*? {2}committed/, 'committed'))).toEqual([
      'committed orders-0 @ 6, 3 done beyond it', 'committed orders-0 @ 6, 5 done beyond it', 'committed orders-0 @ 12',
    ]);
  });

  it('names an incremental revocation (KIP-848) for what it is: some partitions handed back, the rest flowing; an eager one as a rejoin', () => {
    const events = new Instrumentation();
    const lines: string[] = [];
    attachTerminalView(events, (l) => lines.push(l.replace(/^\S+ /, '')));
    events.emit('group.rebalance_detected', { groupId: 'g', memberId: 'm', where: 'librdkafka', reason: 'partitions 1,4 revoked', partitions: [1, 4] });
    events.emit('group.rebalanced', { groupId: 'g', memberId: 'm', durationMs: 120, assignment: { orders: [0] }, revoked: [1, 4] });
    events.emit('group.rebalance_detected', { groupId: 'g', memberId: 'm', where: 'heartbeat', reason: 'REBALANCE_IN_PROGRESS' });
    events.emit('group.rebalanced', { groupId: 'g', memberId: 'm', durationMs: 900, assignment: { orders: [0, 1] } });
    expect(lines).toEqual([
      '⇄ group g: partitions 1,4 revoked (librdkafka); their in-flight chunks finish and commit, the other partitions keep flowing',
      '⇄ group g: handed back partitions 1,4 after 120 ms',
      '⇄ group g: rebalance begun (seen by heartbeat); finishing in-flight chunks before rejoining',
      '⇄ group g: rejoined 900 ms after the rebalance began',
    ]);
  });

  it('says nothing of the kind when the policy ends the retries', () => {
    const events = new Instrumentation();
    const lines: string[] = [];
    attachTerminalView(events, (l) => lines.push(l));
    for (let attempt = 1; attempt <= 5; attempt++) events.emit('poller.retry_scheduled', retry(attempt, false));
    expect(lines.filter((l) => l.includes('hint:'))).toEqual([]);
    expect(lines).toHaveLength(5);
  });

  it('shows a partial batch response as partly done, not as ok', () => {
    const events = new Instrumentation();
    const lines: string[] = [];
    attachTerminalView(events, (l) => lines.push(l));
    const base = { functionName: 'orders', topic: 'orders', partition: 1, count: 5, firstOffset: 10, lastOffset: 14, attempt: 1, bytes: 50, fetchedAt: 0, ok: true, durationMs: 7 };
    events.emit('poller.chunk_end', { ...base, reportedFailedFrom: 12 });
    events.emit('poller.chunk_end', base);
    expect(lines[0]).toMatch(/◐ orders orders-1 answered in 7 ms, reporting offset 12 as failed: offsets 10–11 done, the failure policy takes it from there$/);
    expect(lines[1]).toMatch(/✓ orders orders-1 5 ok in 7 ms$/);
  });

  it('paints the leading symbol on a terminal, and nothing else', () => {
    const events = new Instrumentation();
    const lines: string[] = [];
    attachTerminalView(events, (l) => lines.push(l), 'text', true);
    const base = { functionName: 'orders', topic: 'orders', partition: 1, count: 5, firstOffset: 10, lastOffset: 14, attempt: 1, bytes: 50, fetchedAt: 0, durationMs: 7 };
    events.emit('poller.chunk_end', { ...base, ok: true });
    events.emit('poller.chunk_end', { ...base, ok: false, error: 'boom' });
    expect(lines[0]).toMatch(/ \x1b\[32m✓\x1b\[0m orders orders-1 5 ok in 7 ms$/);
    expect(lines[1]).toMatch(/ \x1b\[31m✗\x1b\[0m orders orders-1 failed in 7 ms: boom$/);
  });

  it('escapes the terminal controls a handler error, its stack or a failure reason carries, in text and in JSON', () => {
    const chunk = { functionName: 'orders', topic: 'orders', partition: 1, count: 1, firstOffset: 3, lastOffset: 3, attempt: 1, bytes: 9, fetchedAt: 0, durationMs: 7, ok: false };
    const error = 'Error: bad record \x1b]52;c;cm0gLXJmIH4=\x07\x1b[2K\rall good\u202e';
    const stack = `${error}\n    at handle (functions/orders.ts:3:9\x1b[8m)\n    at worker-runtime.js:1:1`;
    const emit = (events: Instrumentation) => {
      events.emit('poller.chunk_end', { ...chunk, error, stack });
      events.emit('poller.sent_to_destination', { functionName: 'orders', topic: 'orders', partition: 1, offsets: [3], reason: 'DecodeFailed: \x9b2J\u2028', destination: 'kafka://failed', attempts: 1 });
    };
    const control = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
    const text: string[] = [];
    const json: string[] = [];
    const events = new Instrumentation();
    attachTerminalView(events, (l) => text.push(l));
    attachTerminalView(events, (l) => json.push(l), 'json');
    emit(events);
    expect(text.flatMap((l) => l.split('\n')).map((l) => l.replace(/^\S+ /, ''))).toEqual([
      '✗ orders orders-1 failed in 7 ms: Error: bad record \\x1b]52;c;cm0gLXJmIH4=\\x07\\x1b[2K\\rall good\\u202e',
      '    at handle (functions/orders.ts:3:9\\x1b[8m)',
      '→ orders orders-1 offsets 3: DecodeFailed: \\x9b2J\\u2028, sent to kafka://failed',
    ]);
    for (const l of json) expect(l).not.toMatch(control);
    expect(JSON.parse(json[0]!).error).toBe(error);
  });
});
