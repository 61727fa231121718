/**
 * What the plugin's hooks do. Each reads the service from the framework's resolved
 * configuration (resolveService, as `npm start` does from the file) and runs the same code as
 * the npm scripts: cli/run-local.ts, cli/lag-read.ts, cli/send-records.ts.
 */
import { parseBrokers } from '../config/brokers.ts';
import { getAt } from '../config/path.ts';
import { formatLag } from '../cli/lag-report.ts';
import { readLag, readStatus } from '../cli/lag-read.ts';
import { localMetricsUrl } from '../cli/poller-metrics.ts';
import { localBrokersFor, runningLocalBroker } from '../cli/local-broker.ts';
import { untilSignal } from '../cli/process.ts';
import { selectTriggers } from '../cli/service-args.ts';
import { runLocal } from '../cli/run-local.ts';
import { parseInvokerChoice } from '../invoke/select.ts';
import { fromPlugin, wholeNumber } from '../cli/command-spec.ts';
import { CREATE_TOPICS, GENERATE_EVENT, INVOKE, REDRIVE, TAIL } from '../cli/command-specs.ts';
import { runCreateTopics } from '../cli/create-topics-run.ts';
import { readStdin } from '../cli/cli-command.ts';
import { generateEvent as sampleEvent, runInvoke } from '../cli/invoke-run.ts';
import { redriveSummary, runRedrive } from '../cli/redrive-run.ts';
import { runTail } from '../cli/tail-run.ts';
import { sendRecords } from '../cli/send-records.ts';
import { nothingToSend, recordsToSend } from '../cli/produce-records.ts';
import { positionalsAfter } from './positionals.ts';
import { PRODUCE_OPTIONS } from './produce-options.ts';
import { runStatus, watchSeconds } from '../cli/status-run.ts';
import { frameworkLogger } from './framework-logger.ts';
import { serviceOf as service, userError, type HookContext } from './service.ts';

export async function start(c: HookContext): Promise<void> {
  const logger = frameworkLogger(c.utils.log);
  await userErrors(c, async () => {
    const run = runLocal({
      service: service(c),
      logger,
      write: (line) => c.utils.writeText(line),
      produceHint: (topic, sample) => `echo ${sample} | npx serverless sluice produce --topic ${topic}`,
      ...(typeof c.options.function === 'string' ? { functionFilter: c.options.function } : {}),
      ...(typeof c.options.partitions === 'string' ? { partitions: wholeNumber({ partitions: c.options.partitions }, 'partitions', 1)! } : {}),
      invoker: {
        ...parseInvokerChoice(optional(c.options.invoker), optional(c.options['lambda-endpoint'])),
        watch: c.options.watch !== false,
      },
    });
    const failed = new AbortController();
    const stopped = untilSignal(logger, run.stop, failed.signal);
    await run.ready.catch((e: unknown) => {
      failed.abort();
      throw e;
    });
    // Ctrl-C, or a trigger that stopped for good (then the command fails, naming it).
    const fatal = await Promise.race([stopped.then(() => undefined), run.fatal]);
    if (fatal) {
      failed.abort();
      await run.stop();
      throw fatal;
    }
    logger.info('stopped');
  });
}

export async function lag(c: HookContext): Promise<void> {
  await userErrors(c, async () => {
    const triggers = chosenTriggers(c);
    const defaultBrokers = await localBrokersFor(triggers);
    const progress = c.utils.progress.create({ message: 'Reading consumer groups' });
    let reports: Awaited<ReturnType<typeof readLag>>;
    try {
      reports = await readLag({ triggers, logger: frameworkLogger(c.utils.log), ...(defaultBrokers ? { defaultBrokers } : {}) });
    } finally {
      progress.remove();
    }
    c.utils.writeText(c.options.json ? JSON.stringify(reports, null, 2) : formatLag(reports));
  });
}

export async function status(c: HookContext): Promise<void> {
  await userErrors(c, async () => {
    const every = watchSeconds(c.options.watch === true, typeof c.options.interval === 'string' ? c.options.interval : undefined);
    const triggers = chosenTriggers(c);
    const defaultBrokers = await localBrokersFor(triggers);
    const logger = frameworkLogger(c.utils.log);
    const stop = new AbortController();
    const stopWatching = () => stop.abort();
    if (every !== undefined) process.once('SIGINT', stopWatching);
    try {
      await runStatus({
        read: () => readStatus({ triggers, logger, pollerMetrics: localMetricsUrl(service(c)), ...(defaultBrokers ? { defaultBrokers } : {}) }),
        write: (text) => c.utils.writeText(text),
        json: c.options.json === true,
        watchSeconds: every,
        tty: process.stdout.isTTY === true,
        signal: stop.signal,
      });
    } finally {
      process.off('SIGINT', stopWatching);
    }
  });
}

export async function produce(c: HookContext): Promise<void> {
  await userErrors(c, async () => {
    const topic = String(c.options.topic);
    const file = typeof c.options.file === 'string' ? c.options.file : undefined;
    const records = await recordsToSend(
      {
        key: optional(c.options.key), headers: headerList(c.options.header), count: optional(c.options.count),
        values: [...(typeof c.options.value === 'string' ? [c.options.value] : []), ...positionalsAfter(['sluice', 'produce'], process.argv.slice(2), PRODUCE_OPTIONS)], file,
      },
      nothingToSend(),
      (line) => c.utils.log.notice(line),
    );
    // The codecs (avsc, protobufjs, Ajv) load only for a produce, not for every command.
    const [{ maybeFramed }, { defaultSecretSource }, { httpSettings }] = await Promise.all([import('../cli/produce-schema.ts'), import('../kafka/secrets.ts'), import('../schema/index.ts')]);
    const withRegistry = service(c).triggers.find((t) => t.topic === topic && t.schemaRegistry && !t.schemaRegistry.glue);
    const registry = withRegistry?.schemaRegistry && {
      uri: withRegistry.schemaRegistry.uri,
      http: () => httpSettings(withRegistry.schemaRegistry!, withRegistry.path, defaultSecretSource()),
    };
    const framed = await maybeFramed(records, { subject: optional(c.options.subject), registry: optional(c.options.registry), message: optional(c.options.message) }, (line) => c.utils.log.notice(line), registry);
    const brokers = await producerBrokers(c, topic);
    await sendRecords({ brokers, topic, records: framed, logger: frameworkLogger(c.utils.log) });
    c.utils.log.success(`sent ${records.length} record${records.length === 1 ? '' : 's'} to ${topic} on ${brokers.join(',')}`);
  });
}

/** --brokers, else a trigger of that topic's, else custom.sluice.bootstrapServers, else KAFKA_BROKERS, else the local Kafka. */
async function producerBrokers(c: HookContext, topic: string): Promise<string[]> {
  if (typeof c.options.brokers === 'string') return checked(parseBrokers(c.options.brokers, '--brokers'));
  const trigger = service(c).triggers.find((t) => t.topic === topic && t.bootstrapServers);
  if (trigger?.bootstrapServers) return trigger.bootstrapServers;
  const custom = getAt(c.serverless.configurationInput, ['custom', 'sluice', 'bootstrapServers']);
  if (typeof custom === 'string' || Array.isArray(custom)) return checked(parseBrokers(custom as string | string[], 'custom.sluice.bootstrapServers'));
  const env = process.env.KAFKA_BROKERS?.trim();
  return env ? checked(parseBrokers(env, 'KAFKA_BROKERS')) : runningLocalBroker('pass --brokers or set KAFKA_BROKERS');
}

function checked(parsed: { brokers: string[]; problems: string[] }): string[] {
  if (parsed.problems.length) throw new Error(parsed.problems.join('\n'));
  return parsed.brokers;
}

const optional = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
/** `--header a=1 --header b=2`: the Serverless CLI gives one string, or a list for a repeated flag. */
const headerList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : []);

async function userErrors(c: HookContext, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (e) {
    throw userError(c, e);
  }
}

/** The triggers of --function, else all; none is an error naming what to fix. */
function chosenTriggers(c: HookContext): ReturnType<typeof service>['triggers'] {
  return selectTriggers(service(c), typeof c.options.function === 'string' ? c.options.function : undefined);
}

export async function tail(c: HookContext): Promise<void> {
  await userErrors(c, async () => {
    const o = fromPlugin(TAIL, c.options);
    const brokers = await producerBrokers(c, String(o.topic));
    const stop = new AbortController();
    const onSigint = () => stop.abort();
    process.once('SIGINT', onSigint);
    try {
      await runTail(o, { brokers, logger: frameworkLogger(c.utils.log), write: (line) => c.utils.writeText(line), ready: (line) => c.utils.log.notice(line), signal: stop.signal });
    } finally {
      process.off('SIGINT', onSigint);
    }
  });
}

export async function redrive(c: HookContext): Promise<void> {
  await userErrors(c, async () => {
    const o = fromPlugin(REDRIVE, c.options);
    const brokers = await producerBrokers(c, String(o.topic));
    const report = await runRedrive(o, { brokers, logger: frameworkLogger(c.utils.log), write: (line) => c.utils.writeText(line) });
    c.utils.log.success(redriveSummary(report, String(o.topic), o['dry-run'] === true));
  });
}

export async function invoke(c: HookContext): Promise<void> {
  await userErrors(c, async () => {
    const o = fromPlugin(INVOKE, c.options);
    const ok = await runInvoke(o, {
      service: service(c), brokers: (t) => producerBrokers(c, t.topic), logger: frameworkLogger(c.utils.log), write: (line) => c.utils.writeText(line), stdin: readStdin,
    });
    if (!ok) throw new Error('The function failed (its error is above).');
  });
}

export async function generateEvent(c: HookContext): Promise<void> {
  await userErrors(c, async () => c.utils.writeText(sampleEvent(fromPlugin(GENERATE_EVENT, c.options), service(c))));
}

export async function createTopics(c: HookContext): Promise<void> {
  await userErrors(c, async () => {
    const o = fromPlugin(CREATE_TOPICS, c.options);
    const { created, existing } = await runCreateTopics(o, {
      service: async () => service(c),
      brokers: (t) => producerBrokers(c, t?.topic ?? String(o.topic)),
      logger: frameworkLogger(c.utils.log),
      write: (line) => c.utils.log.notice(line),
    });
    c.utils.log.success(`${created.length} created, ${existing.length} already there`);
  });
}
