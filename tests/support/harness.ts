/**
 * Runs the real poller (group member, local invoker, worker threads) for one trigger whose
 * handler is tests/fixtures/functions/recorder.ts, and reads back what the handler saw.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SelfManagedKafkaEvent } from 'aws-lambda';
import type { FailurePolicy, TriggerSpec } from '../../framework/config/types.ts';
import { InvocationHistory } from '../../framework/console/history.ts';
import { createLocalInvoker } from '../../framework/invoke/local.ts';
import { Instrumentation } from '../../framework/observe/events.ts';
import { runService, type RunningService } from '../../framework/poller/service-runner.ts';
import type { GroupTuning } from '../../framework/poller/tuning.ts';
import { brokers, testLogger, uniqueName } from './kafka.ts';

export const FIXTURES = fileURLToPath(new URL('../fixtures', import.meta.url));

export interface Seen {
  requestId: string;
  at: number;
  event: SelfManagedKafkaEvent;
}

export interface Harness {
  trigger: TriggerSpec;
  events: Instrumentation;
  recordFile: string;
  /** Every invocation the handler started, in order. */
  seen(): Seen[];
  /** awsRequestIds of invocations that returned. */
  completed(): string[];
  /** With `httpPort`: where /metrics and the health endpoints answer. */
  httpUrl?: string;
  /** With `console`: the console's page. */
  consoleUrl?: string;
  /** This member's joins, from the first: when, and its assignment (topic -> partitions). */
  joins: Array<{ at: number; memberId: string; assignment: Record<string, number[]> }>;
  stop(): Promise<void>;
}

/** A failure policy: AWS's defaults (retry until expiry, nothing else) with `p` over them. */
export const failurePolicy = (p: Partial<FailurePolicy> = {}): FailurePolicy => ({
  maximumRetryAttempts: -1, maximumRecordAgeMs: undefined, bisectBatchOnFunctionError: false, reportBatchItemFailures: false, onFailure: undefined, ...p,
});

export interface RecorderOptions extends Partial<Omit<TriggerSpec, 'environment'>> {
  topic: string;
  env?: Record<string, string>;
  tuning?: Partial<GroupTuning>;
  /** Share a record file between runs (restart tests). */
  recordFile?: string;
  /** Serve /healthz, /readyz and /metrics on this loopback port (0: any free one). */
  httpPort?: number;
  /** With `httpPort`: serve the console (read-only) at `/` too. */
  console?: boolean;
  /** The poller's instrumentation, to listen before it starts (else a new one: Harness.events). */
  events?: Instrumentation;
}

/** The engine the suite runs on: kafkajs unless SLUICE_TEST_ENGINE says librdkafka. */
export function engineUnderTest(): Pick<TriggerSpec, 'engine' | 'groupProtocol'> {
  return process.env.SLUICE_TEST_ENGINE === 'librdkafka' ? { engine: 'librdkafka', groupProtocol: 'consumer' } : { engine: 'kafkajs', groupProtocol: 'classic' };
}

export function recorderTrigger(o: RecorderOptions, recordFile: string): TriggerSpec {
  const { env, tuning: _tuning, recordFile: _file, httpPort: _port, events: _events, console: _console, ...rest } = o;
  return {
    functionName: 'recorder',
    handler: 'functions/recorder.handler',
    timeoutMs: 30_000,
    memorySizeMb: 256,
    bootstrapServers: brokers(),
    batchSize: 100,
    parallelizationFactor: 1,
    // SLUICE_TEST_ENGINE=librdkafka runs the same tests on the librdkafka engine, with KIP-848 (npm run test:engines).
    ...engineUnderTest(),
    maximumBatchingWindowMs: 0,
    startingPosition: 'TRIM_HORIZON',
    consumerGroupId: uniqueName('group'),
    enabled: true,
    maxPollIntervalMs: 300_000,
    sessionTimeoutMs: 30_000,
    heartbeatIntervalMs: 3_000,
    concurrency: 4,
    maxConsumerRestarts: 8,
    failure: failurePolicy(),
    filterPatterns: [],
    path: 'functions.recorder.events[0].sluice',
    ...rest,
    environment: { RECORD_FILE: recordFile, ...env },
  };
}

export async function startRecorder(o: RecorderOptions): Promise<Harness> {
  const recordFile = o.recordFile ?? join(mkdtempSync(join(tmpdir(), 'sluice-test-')), 'seen.jsonl');
  const trigger = recorderTrigger(o, recordFile);
  const events = o.events ?? new Instrumentation();
  const joins: Harness['joins'] = [];
  events.on('group.join', (e) => joins.push({ at: Date.now(), memberId: e.memberId, assignment: e.assignment }));
  const invoker = createLocalInvoker({
    rootDir: FIXTURES, service: 'sluice-tests', stage: 'test', region: 'us-east-1', logger: testLogger, output: () => undefined,
    functions: [trigger],
  });
  let running: RunningService;
  try {
    running = await runService({
      triggers: [trigger], invoker, logger: testLogger, events, ...(o.tuning ? { tuning: o.tuning } : {}),
      ...(o.httpPort !== undefined ? { http: { host: '127.0.0.1', port: o.httpPort, explicit: true } } : {}),
      ...(o.console ? { console: { mode: 'read-only' as const, history: new InvocationHistory(), service: 'sluice-tests', stage: 'test' } } : {}),
    });
  } catch (e) {
    await invoker.close();
    throw e;
  }
  return {
    trigger,
    events,
    recordFile,
    joins,
    ...(running.httpUrl ? { httpUrl: running.httpUrl } : {}),
    ...(running.consoleUrl ? { consoleUrl: running.consoleUrl } : {}),
    seen: () => readLines(recordFile).map((l) => JSON.parse(l) as Seen),
    completed: () => readLines(`${recordFile}.done`),
    stop: async () => {
      await running.stop();
      await invoker.close();
    },
  };
}

/**
 * The complete lines of a file another process appends to: a line being written is not one yet
 * (CI-20 read a 10 KB event cut at 8,192 bytes, mid-append, and JSON.parse threw).
 */
function readLines(file: string): string[] {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  return text.slice(0, text.lastIndexOf('\n') + 1).split('\n').filter(Boolean);
}

export const recordsOf = (s: Seen) => Object.values(s.event.records).flat();

/** How many partitions of `topic` each of the member's joins (or announced assignments, on librdkafka) gave it. */
export const assigned = (h: Pick<Harness, 'joins'>, topic: string): number[] => h.joins.map((j) => j.assignment[topic]?.length ?? 0);
