/**
 * A scratch service for tests of the local runtime: handler files written to a temporary directory,
 * the real local invoker over them (a worker per function, as `npm start` runs them), and a request
 * of one record. `close()` stops the workers and removes the directory.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalInvoker, type LocalInvokerOptions } from '../../framework/invoke/local.ts';
import type { InvokeRequest, Invoker } from '../../framework/invoke/types.ts';

export interface LocalFunctionSpec {
  name: string;
  /** `functions/<file>.<export>` */
  handler: string;
  timeoutMs?: number;
}

const silent = { error() {}, warn() {}, info() {}, debug() {}, child: () => silent, level: 'warn' } as never;

/** `files`: path under `functions/` (without `.ts`) -> its source. */
export function localService(
  files: Record<string, string>, functions: LocalFunctionSpec[], o: Pick<LocalInvokerOptions, 'output' | 'logTap'> = {},
): { invoker: Invoker; close(): Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-local-service-'));
  mkdirSync(join(dir, 'functions'));
  for (const [file, source] of Object.entries(files)) writeFileSync(join(dir, 'functions', `${file}.ts`), source);
  const invoker = createLocalInvoker({
    rootDir: dir, service: 's', stage: 'dev', region: 'eu-west-1', logger: silent, output: o.output ?? (() => undefined), watch: false, ...(o.logTap ? { logTap: o.logTap } : {}),
    functions: functions.map((f) => ({ functionName: f.name, handler: f.handler, memorySizeMb: 128, timeoutMs: f.timeoutMs ?? 5_000, environment: {} })),
  });
  return {
    invoker,
    async close() {
      await invoker.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A request of one record (`orders-0` at `offset`, value `{}`). */
export function oneRecord(functionName: string, o: { offset?: number; requestId?: string; timeoutMs?: number } = {}): InvokeRequest {
  return {
    functionName, timeoutMs: o.timeoutMs ?? 5_000, attempt: 1, ...(o.requestId ? { requestId: o.requestId } : {}), source: { kind: 'self-managed', bootstrapServers: ['127.0.0.1:9092'] },
    records: [{ topic: 'orders', partition: 0, offset: o.offset ?? 1, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: Buffer.from('{}'), headers: [] }],
  } as unknown as InvokeRequest;
}
