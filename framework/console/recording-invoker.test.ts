import { describe, expect, it } from 'vitest';
import type { KafkaRecord } from '../event/record.ts';
import type { Invoker, InvokeResult } from '../invoke/types.ts';
import { InvocationHistory } from './history.ts';
import { recordingInvoker } from './recording-invoker.ts';

const record: KafkaRecord = { topic: 't', partition: 0, offset: 7, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: Buffer.from('v'), headers: [] };

describe('recordingInvoker', () => {
  it('records a running invocation as the attempt the poller says it is, and returns the inner result', async () => {
    const history = new InvocationHistory();
    let seenWhileRunning: number | undefined;
    const inner: Invoker = {
      overheadMs: 0,
      prepare: async () => {},
      close: async () => {},
      invoke: async (r): Promise<InvokeResult> => {
        seenWhileRunning = history.list()[0]?.attempt;
        return { ok: true, payload: 'done', durationMs: 1, requestId: r.requestId! };
      },
    };
    const invoker = recordingInvoker(inner, history);
    const result = await invoker.invoke({ functionName: 'f', records: [record], source: { bootstrapServers: 'b:9092' }, timeoutMs: 1000, attempt: 3 });
    expect(seenWhileRunning).toBe(3);
    expect(result).toMatchObject({ ok: true, payload: 'done' });
    expect(history.list()[0]).toMatchObject({ attempt: 3, outcome: 'ok', firstOffset: 7 });
  });
});
