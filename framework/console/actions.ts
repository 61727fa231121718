/**
 * What the console's buttons do, each the same thing a CLI command does: replay runs a function
 * with an event and commits nothing (`invoke --event`), produce sends one record (`produce`),
 * redrive sends a kafka:// destination's copies back (`redrive`, failure/redrive.ts), and the
 * failures view reads a destination topic as `tail` would, without joining any trigger's group.
 * Each checks its input and answers with what to change; the server only routes to them.
 */
import type { TriggerSpec } from '../config/types.ts';
import { recordsOfEvent } from '../event/parse-event.ts';
import { readFailedCopy } from '../failure/redrive.ts';
import { ClusterAdmin } from '../kafka/kafkajs/admin.ts';
import { createKafkaClient } from '../kafka/kafkajs/client.ts';
import { RecordProducer } from '../kafka/kafkajs/producer.ts';
import type { KafkaSecurity } from '../kafka/security.ts';
import type { Logger } from '../observe/logger.ts';
import { printable } from '../observe/printable.ts';
import { redriveSummary, runRedrive } from '../cli/redrive-run.ts';
import { readTopic } from '../cli/topic-read.ts';
import { UsageError } from '../errors.ts';
import type { FailedRecordView, FailureDestination, ProduceRequest, ProduceResult, RedriveRequest, RedriveResult, ReplayRequest } from './api-types.ts';
import type { ConsoleState } from './console-state.ts';
import type { InvokeRequest, InvokeResult } from '../invoke/types.ts';
import type { Invocation } from './history.ts';

/** A request the console refuses: answered 400 with the message. */
export class ConsoleInputError extends UsageError {}

export interface ConsoleCluster {
  brokers: string[];
  security: KafkaSecurity;
}

export interface ActionContext {
  triggers: TriggerSpec[];
  clusterOf(t: TriggerSpec): ConsoleCluster;
  replay(request: InvokeRequest): Promise<{ entry: Invocation; result: InvokeResult }>;
  state: ConsoleState;
  logger: Logger;
}

const FAILED_SHOWN = 200;
const VALUE_SHOWN = 4 * 1024;

export function consoleActions(c: ActionContext) {
  const triggerOf = (fn: unknown, topic?: unknown): TriggerSpec => {
    const own = c.triggers.filter((x) => x.functionName === fn);
    const t = topic === undefined ? own[0] : own.find((x) => x.topic === topic);
    if (t) return t;
    if (own.length) throw new ConsoleInputError(`${String(fn)} has no trigger on topic ${JSON.stringify(topic)}; its topics are ${own.map((x) => x.topic).join(', ')}.`);
    throw new ConsoleInputError(`No trigger for function ${JSON.stringify(fn)}; this console runs ${[...new Set(c.triggers.map((x) => x.functionName))].join(', ')}.`);
  };
  const producers = new Map<string, Promise<RecordProducer>>();
  const producerFor = (t: TriggerSpec) => {
    const { brokers, security } = c.clusterOf(t);
    const key = brokers.join(',');
    let p = producers.get(key);
    if (!p) {
      p = RecordProducer.connect(createKafkaClient({ brokers, logger: c.logger, retries: 3, ...security }));
      p.catch(() => producers.delete(key));
      producers.set(key, p);
    }
    return p;
  };

  const partitionsOf = async (t: TriggerSpec, topic: string): Promise<number | undefined> => {
    const { brokers, security } = c.clusterOf(t);
    const admin = await ClusterAdmin.connect(createKafkaClient({ brokers, logger: c.logger, retries: 3, ...security }), brokers);
    try {
      return await admin.partitionCount(topic);
    } finally {
      await admin.disconnect();
    }
  };

  return {
    async replay(body: Partial<ReplayRequest>) {
      const t = triggerOf(body.function);
      let parsed;
      try {
        parsed = recordsOfEvent(body.event);
      } catch (e) {
        throw new ConsoleInputError(`The event is not an AWS Kafka event: ${(e as Error).message}`);
      }
      if (parsed.records.length === 0) throw new ConsoleInputError('The event holds no records; give it at least one under records["<topic>-<partition>"].');
      const run = await c.replay({ functionName: t.functionName, records: parsed.records, source: parsed.source, timeoutMs: t.timeoutMs });
      const r = run.result;
      c.logger.info(`replayed ${t.functionName} from the console with ${parsed.records.length} record${parsed.records.length === 1 ? '' : 's'}: ${r.ok ? 'ok' : `failed (${printable(r.error.message.split('\n')[0]!)})`} in ${r.durationMs} ms; nothing committed`);
      return run;
    },

    async produce(body: Partial<ProduceRequest>): Promise<ProduceResult> {
      const topic = body.topic;
      const owner = c.triggers.find((t) => t.topic === topic || (t.failure.onFailure?.kind === 'kafka' && t.failure.onFailure.topic === topic));
      if (typeof topic !== 'string' || !owner) {
        const known = [...new Set(c.triggers.flatMap((t) => [t.topic, ...(t.failure.onFailure?.kind === 'kafka' ? [t.failure.onFailure.topic] : [])]))];
        throw new ConsoleInputError(`The console sends only to this service's topics (${known.join(', ')}); ${JSON.stringify(topic)} is not one. Use \`produce --topic\` for others.`);
      }
      if (body.value !== null && typeof body.value !== 'string') throw new ConsoleInputError('`value` must be a string, or null for a tombstone.');
      if (body.key !== undefined && body.key !== null && typeof body.key !== 'string') throw new ConsoleInputError('`key` must be a string, null or absent.');
      if (body.headers !== undefined && (body.headers === null || typeof body.headers !== 'object' || Array.isArray(body.headers))) {
        throw new ConsoleInputError('`headers` must be an object of header names to string values, e.g. {"trace":"abc"}.');
      }
      const headers = Object.entries(body.headers ?? {});
      const bad = headers.find(([, v]) => typeof v !== 'string');
      if (bad) throw new ConsoleInputError(`Header ${JSON.stringify(bad[0])}: its value must be a string.`);
      if (body.partition !== undefined && (!Number.isInteger(body.partition) || body.partition < 0)) throw new ConsoleInputError('`partition` must be a whole number ≥ 0, or absent.');
      if (body.partition !== undefined) {
        const count = await partitionsOf(owner, topic);
        if (count !== undefined && body.partition >= count) throw new ConsoleInputError(`${topic} has ${count} partition${count === 1 ? '' : 's'} (0–${count - 1}); ${body.partition} is not one.`);
      }
      const producer = await producerFor(owner);
      await producer.send(topic, [{ key: body.key ?? null, value: body.value, headers: headers as Array<[string, string]>, ...(body.partition !== undefined ? { partition: body.partition } : {}) }]);
      return { topic, sent: 1 };
    },

    async failures(): Promise<FailureDestination[]> {
      const out: FailureDestination[] = [];
      for (const t of c.triggers) {
        const d = t.failure.onFailure;
        if (!d) continue;
        const sent = c.state.sentBy(t.functionName, t.topic);
        if (d.kind !== 'kafka') {
          out.push({ function: t.functionName, topic: t.topic, destination: d.uri, readable: false, note: `${d.kind.toUpperCase()} destinations are not read from here; this lists what this process sent there.`, records: [], sent });
          continue;
        }
        const records = await readDestination(t, d.topic, c);
        out.push({ function: t.functionName, topic: t.topic, destination: d.uri, readable: true, records, sent });
      }
      return out;
    },

    async redrive(body: Partial<RedriveRequest>): Promise<RedriveResult> {
      const t = triggerOf(body.function, body.topic);
      const d = t.failure.onFailure;
      if (d?.kind !== 'kafka') throw new ConsoleInputError(`${t.functionName}'s on-failure destination ${d ? `is ${d.uri}, not a kafka:// topic` : 'is not set'}: only a Kafka destination can be redriven from here.`);
      const options: Record<string, string> = { topic: d.topic };
      for (const [k, name] of [['partition', 'partition'], ['fromOffset', 'from-offset'], ['toOffset', 'to-offset']] as const) {
        const v = body[k];
        if (v === undefined) continue;
        if (!Number.isInteger(v) || v < 0) throw new ConsoleInputError(`\`${k}\` must be a whole number ≥ 0.`);
        options[name] = String(v);
      }
      if (body.reason !== undefined) options.reason = String(body.reason);
      const { brokers, security } = c.clusterOf(t);
      // Its lines (a reduced copy not sent) are in the summary's words too.
      const report = await runRedrive(options, { brokers, security, logger: c.logger, write: () => undefined });
      c.logger.info(`redrive from the console: ${redriveSummary(report, d.topic, false)}`);
      return { topic: d.topic, read: report.read, selected: report.selected, sent: report.sent, to: report.to, summary: redriveSummary(report, d.topic, false) };
    },

    /** Reads each trigger's group commits and log ends into the overview (while a page is open); a cluster that does not answer is skipped until the next time. */
    async refreshOffsets(): Promise<void> {
      for (const t of c.triggers) {
        const { brokers, security } = c.clusterOf(t);
        try {
          const admin = await ClusterAdmin.connect(createKafkaClient({ brokers, logger: c.logger, retries: 1, ...security }), brokers);
          try {
            c.state.noteOffsets(t.functionName, t.topic, await admin.offsets(t.consumerGroupId, t.topic));
          } finally {
            await admin.disconnect();
          }
        } catch (e) {
          c.logger.debug('the console could not read offsets', { function: t.functionName, topic: t.topic, error: (e as Error).message });
        }
      }
    },

    async close() {
      const all = [...producers.values()];
      producers.clear();
      await Promise.allSettled(all.map(async (p) => (await p).disconnect()));
    },
  };
}

export type ConsoleActions = ReturnType<typeof consoleActions>;

/**
 * The destination topic's records, newest first, the last FAILED_SHOWN of them: read from the last
 * FAILED_SHOWN of each partition (a destination of a million failures is not read whole each refresh).
 */
async function readDestination(t: TriggerSpec, topic: string, c: ActionContext): Promise<FailedRecordView[]> {
  const { brokers, security } = c.clusterOf(t);
  const kept: FailedRecordView[] = [];
  await readTopic({
    kafka: createKafkaClient({ brokers, logger: c.logger, retries: 3, ...security }), brokers, topic, start: { last: FAILED_SHOWN }, untilEnd: true,
    onRecord: (r) => {
      const copy = readFailedCopy(r);
      const value = r.value === null ? null : r.value.subarray(0, VALUE_SHOWN).toString('utf8');
      const view: FailedRecordView = {
        partition: r.partition, offset: r.offset, timestamp: new Date(r.timestamp).toISOString(), key: r.key === null ? null : printable(r.key.toString('utf8').slice(0, 500)),
        value: typeof copy !== 'string' && 'original' in copy ? (copy.original.value === null ? null : copy.original.value.subarray(0, VALUE_SHOWN).toString('utf8')) : value,
        headers: Object.fromEntries(r.headers.map(([k, v]) => [k, v === null ? '' : v.subarray(0, 1024).toString('utf8')])),
        ...((r.value?.length ?? 0) > VALUE_SHOWN ? { valueTruncated: true } : {}),
        ...(typeof copy === 'string' ? {} : { reason: copy.reason, attempts: copy.attempts, source: copy.source }),
        ...(typeof copy !== 'string' && 'reduced' in copy ? { reduced: copy.reduced, value: null } : {}),
      };
      kept.push(view);
      // Bounded while reading, keeping the newest: partitions are read in no particular order.
      if (kept.length >= FAILED_SHOWN * 2) newestFirst(kept).splice(FAILED_SHOWN);
    },
  });
  return newestFirst(kept).slice(0, FAILED_SHOWN);
}

function newestFirst(views: FailedRecordView[]): FailedRecordView[] {
  return views.sort((a, b) => b.timestamp.localeCompare(a.timestamp) || b.partition - a.partition || b.offset - a.offset);
}
