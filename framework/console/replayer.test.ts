import { describe, expect, it } from 'vitest';
import type { KafkaRecord } from '../event/record.ts';
import type { Invoker, InvokeResult } from '../invoke/types.ts';
import { InvocationHistory } from './history.ts';
import { replayer } from './replayer.ts';

const record: KafkaRecord = { topic: 't', partition: 0, offset: 7, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: Buffer.from('v'), headers: [] };

describe('replayer', () => {
  it('records a replay, listed while it runs with the lines the handler writes, and returns the inner result', async () => {
    const history = new InvocationHistory({}, () => 5_000);
    // Past the rate and no page open: a poller's invocation would run quiet; a replay never does.
    for (let i = 0; i < 10; i++) history.start({ functionName: 'f', records: [record], source: { bootstrapServers: 'b:9092' }, requestId: `r${i}` });
    let seenWhileRunning: string | undefined;
    const inner: Invoker = {
      overheadMs: 0,
      prepare: async () => {},
      close: async () => {},
      invoke: async (r): Promise<InvokeResult> => {
        history.log(r.requestId, 'info', 'replaying'); // the local invoker's log tap
        seenWhileRunning = history.list({ limit: 1 })[0]?.outcome;
        return { ok: true, payload: 'done', durationMs: 1, requestId: r.requestId! };
      },
    };
    const { entry, result } = await replayer(inner, history)({ functionName: 'f', records: [record], source: { bootstrapServers: 'b:9092' }, timeoutMs: 1000 });
    expect(seenWhileRunning).toBe('running');
    expect(result).toMatchObject({ ok: true, payload: 'done' });
    expect(history.list({ limit: 1 })[0]).toBe(entry);
    expect(entry).toMatchObject({ replay: true, attempt: 1, outcome: 'ok', firstOffset: 7, response: 'done' });
    expect(entry.logs.map((l) => l.text)).toEqual(['replaying']);
  });
});
