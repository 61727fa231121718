/**
 * The console wired as service-runner.ts wires it (lib/wired-console.ts), its routes served on
 * loopback, and invocations started at a fixed pace through the poller's own ChunkInvoker, no
 * broker: batches of fresh records spread over 6 partitions, each invocation ending 5–50 ms after
 * it starts. For the tools that read what a page costs, in the browser
 * (console-page.ts) or in the process serving it (console-serving.ts), at a steady load.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvocationHistory } from '../../framework/console/history.ts';
import type { KafkaRecord } from '../../framework/event/record.ts';
import type { Invoker, InvokeResult } from '../../framework/invoke/types.ts';
import { benchTrigger, wiredConsole } from './wired-console.ts';

const PARTITIONS = 6;
/** Where nothing listens: the console's offset reads fail at once. */
const NOWHERE = '127.0.0.1:1';

export interface PacedConsole {
  /** The console's page, `/` of its server. */
  url: string;
  close(): Promise<void>;
}

export async function pacedConsole(perSecond: number, batchSize: number): Promise<PacedConsole> {
  const spec = benchTrigger('orders', batchSize);
  const value = Buffer.alloc(256, 'v');
  const next = new Array<number>(PARTITIONS).fill(0);
  const batchOf = (partition: number): KafkaRecord[] => {
    const from = next[partition]!;
    next[partition] = from + batchSize;
    return Array.from({ length: batchSize }, (_, i) => ({
      topic: 'orders', partition, offset: from + i, timestamp: Date.now(), timestampType: 'CREATE_TIME', key: Buffer.from(`key-${(from + i) % 997}`), value: Buffer.from(value), headers: [],
    }));
  };
  const history = new InvocationHistory(process.env.BENCH_LISTED_PER_SECOND ? { listedPerSecond: Number(process.env.BENCH_LISTED_PER_SECOND) } : {});
  const inner: Invoker = {
    overheadMs: 0, prepare: async () => {}, close: async () => {},
    invoke: async (r): Promise<InvokeResult> => {
      const requestId = r.requestId ?? randomUUID();
      history.log(requestId, 'info', `handled ${r.records.length} records from ${r.records[0]!.offset}`);
      const durationMs = 5 + Math.floor(Math.random() * 45);
      await new Promise((resolve) => setTimeout(resolve, durationMs));
      return { ok: true, payload: { batchItemFailures: [] }, durationMs, requestId };
    },
  };
  const { chunks, console: wired } = wiredConsole(spec, inner, history, NOWHERE);
  const run = wired!;
  const server = createServer((req, res) => {
    if (!run.routes.handle(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  // Every 20 ms, the invocations due by now.
  let started = 0;
  const t0 = performance.now();
  const pacer = setInterval(() => {
    const due = Math.floor(((performance.now() - t0) / 1000) * perSecond);
    for (; started < due; started++) {
      const partition = started % PARTITIONS;
      void chunks.invoke({ topic: 'orders', partition, fetchedAt: 0, heartbeat: async () => {} }, { records: batchOf(partition), attempts: 0, bytes: batchSize * 256 }, false);
    }
  }, 20);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    async close() {
      clearInterval(pacer);
      await run.close();
      server.closeAllConnections();
      server.close();
    },
  };
}
