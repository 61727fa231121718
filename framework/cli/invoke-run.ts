/**
 * `invoke`: runs one function once, locally, with an AWS Kafka event from a file (or stdin), or
 * with records read from Kafka at a partition and offset, decoded by the trigger's schema
 * registry and kept or dropped by its filters exactly as the poller would. It commits nothing
 * and sends nothing to a destination: it says what the trigger would have done instead. The
 * function's response and error are printed through printable() (a stack keeps its lines).
 * `generate-event` prints the event `invoke --event` takes.
 */
import { readFileSync } from 'node:fs';
import type { ServiceSpec, TriggerSpec } from '../config/types.ts';
import { buildEvent, type EventSource } from '../event/build-event.ts';
import { recordsOfEvent } from '../event/parse-event.ts';
import type { KafkaRecord } from '../event/record.ts';
import { compileFilters } from '../filter/compile.ts';
import { createLocalInvoker } from '../invoke/local.ts';
import { createKafkaClient } from '../kafka/kafkajs/client.ts';
import { lazySecrets, resolveTriggerSecurity } from '../kafka/security.ts';
import type { Logger } from '../observe/logger.ts';
import { printable, printableJson } from '../observe/printable.ts';
import { wholeNumber, type ParsedOptions } from './command-spec.ts';
import { readTopic } from './topic-read.ts';
import { UsageError } from '../errors.ts';

export interface InvokeIo {
  service: ServiceSpec;
  /** The brokers to read from, when the command reads Kafka: --brokers, the trigger's, KAFKA_BROKERS, else the local Kafka. */
  brokers(trigger: TriggerSpec): Promise<string[]>;
  logger: Logger;
  write(line: string): void;
  /** Reads stdin for `--event -`. */
  stdin(): Promise<string>;
}

/** The trigger of --function (of --topic among its triggers), or the service's only function's. */
export function triggerOf(service: ServiceSpec, fn: string | undefined, topic?: string): TriggerSpec {
  const names = [...new Set(service.triggers.map((t) => t.functionName))];
  if (!fn && names.length !== 1) throw new UsageError(`Name the function with --function: ${names.length ? `this service has ${names.join(', ')}` : 'this service declares no sluice trigger'}.`);
  const name = fn ?? names[0]!;
  const own = service.triggers.filter((t) => t.functionName === name);
  if (own.length === 0) throw new UsageError(`No sluice trigger for function "${name}" (functions with triggers: ${names.join(', ') || 'none'}).`);
  return own.find((t) => t.topic === topic) ?? own[0]!;
}

export async function runInvoke(o: ParsedOptions, io: InvokeIo): Promise<boolean> {
  const trigger = triggerOf(io.service, str(o.function), str(o.topic));
  const offset = wholeNumber(o, 'offset');
  if ((o.event === undefined) === (offset === undefined)) throw new UsageError('Give either --event <file|-> or --offset <n> (with --partition and --count).');
  let records: KafkaRecord[];
  let source: EventSource;
  if (typeof o.event === 'string') {
    ({ records, source } = recordsOfEvent(parseEvent(o.event === '-' ? await io.stdin() : readFileSync(o.event, 'utf8'), o.event === '-' ? 'stdin' : o.event)));
  } else {
    const brokers = await io.brokers(trigger);
    source = { bootstrapServers: brokers.join(','), ...(trigger.eventSourceArn ? { eventSourceArn: trigger.eventSourceArn } : {}) };
    records = await asTheTriggerWould(trigger, brokers, { topic: str(o.topic) ?? trigger.topic, partition: wholeNumber(o, 'partition') ?? 0, offset: offset!, count: wholeNumber(o, 'count', 1) ?? 1 }, io);
    if (records.length === 0) return true;
  }
  const invoker = createLocalInvoker({
    rootDir: io.service.rootDir, service: io.service.service, stage: io.service.stage, region: io.service.region, logger: io.logger, output: io.write, functions: [trigger],
  });
  try {
    await invoker.prepare();
    const result = await invoker.invoke({ functionName: trigger.functionName, records, source, timeoutMs: trigger.timeoutMs });
    if (result.ok) {
      io.write(printableJson(JSON.stringify(result.payload ?? null, null, 2)));
      io.logger.info(`${trigger.functionName} returned in ${result.durationMs} ms (${records.length} record${records.length === 1 ? '' : 's'}; nothing committed)`);
      return true;
    }
    io.write(printable(result.error.stack ?? `${result.error.name}: ${result.error.message}`, { lines: true }));
    io.logger.error(`${trigger.functionName} failed in ${result.durationMs} ms: ${result.error.name}: ${result.error.message.split('\n')[0]}`);
    return false;
  } finally {
    await invoker.close();
  }
}

/** Reads `count` records from the offset, then decodes and filters them as the trigger's poller does, saying what it left out. */
async function asTheTriggerWould(trigger: TriggerSpec, brokers: string[], at: { topic: string; partition: number; offset: number; count: number }, io: InvokeIo): Promise<KafkaRecord[]> {
  const secrets = lazySecrets();
  const reading = { ...trigger, bootstrapServers: brokers };
  const security = (await resolveTriggerSecurity([reading], secrets)).get(reading) ?? {};
  const kafka = createKafkaClient({ brokers, logger: io.logger, retries: 3, ...security });
  const read: KafkaRecord[] = [];
  const done = new AbortController();
  await readTopic({
    kafka, brokers, topic: at.topic, start: { partition: at.partition, offset: at.offset }, untilEnd: true, signal: done.signal,
    onRecord: (r) => {
      if (read.length < at.count) read.push(r);
      if (read.length >= at.count) done.abort();
    },
  });
  if (read.length === 0) {
    io.logger.warn(`${at.topic}-${at.partition} has no record at offset ${at.offset} or after it: nothing to invoke`);
    return [];
  }
  let records = read;
  if (trigger.schemaRegistry) {
    const { createRecordDecoder } = await import('../schema/index.ts');
    const decoder = await createRecordDecoder(trigger.schemaRegistry, { path: trigger.path, filters: trigger.filterPatterns.length > 0, secrets });
    const decoded = await decoder.decode(read);
    for (const d of decoded) if (!d.ok) io.logger.warn(`offset ${d.record.offset} would go to the destination as ${d.reason}: ${d.error}`);
    records = decoded.filter((d) => d.ok).map((d) => d.record);
  }
  const keep = compileFilters(trigger.filterPatterns);
  const dropped = records.filter((r) => !keep(r)).map((r) => r.offset);
  if (dropped.length) io.logger.info(`filtered out by the trigger's filterPatterns (committed without an invocation by the poller): offset${dropped.length === 1 ? '' : 's'} ${dropped.join(', ')}`);
  return records.filter((r) => keep(r));
}

export function generateEvent(o: ParsedOptions, service: ServiceSpec): string {
  const trigger = triggerOf(service, str(o.function));
  const count = wholeNumber(o, 'count', 1) ?? 1;
  const value = str(o.value) ?? '{"hello":"world"}';
  const now = Date.now();
  const records: KafkaRecord[] = Array.from({ length: count }, (_, i) => ({
    topic: trigger.topic, partition: 0, offset: i, timestamp: now, timestampType: 'CREATE_TIME',
    key: typeof o.key === 'string' ? Buffer.from(o.key) : null, value: Buffer.from(value), headers: [],
  }));
  const brokers = trigger.bootstrapServers?.join(',') ?? 'localhost:9092';
  return JSON.stringify(buildEvent(records, { bootstrapServers: brokers, ...(trigger.eventSourceArn ? { eventSourceArn: trigger.eventSourceArn } : {}) }), null, 2);
}

function parseEvent(text: string, from: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const npm = /^\s*> /.test(text) ? ' It starts with npm\'s own "> …" lines: run npm with --silent (npm run -s generate-event -- … > event.json).' : '';
    throw new UsageError(`--event ${from} is not JSON (${(e as Error).message}).${npm}`);
  }
}

const str = (v: string | boolean | undefined): string | undefined => (typeof v === 'string' ? v : undefined);
