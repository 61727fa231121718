/**
 * `npm start`: runs every Sluice trigger of ./serverless.yml locally. With no brokers
 * configured it starts the local Apache Kafka (infra/kafka) and creates the declared topics.
 * Ctrl-C finishes in-flight invocations, commits them, leaves the groups and stops what it started.
 */
import { parseArgs } from 'node:util';
import { ensureBroker, type BrokerHandle } from '../../infra/kafka/broker.ts';
import { loadService } from '../config/load.ts';
import { createLocalInvoker } from '../invoke/local.ts';
import { Instrumentation } from '../observe/events.ts';
import { createLogger } from '../observe/logger.ts';
import { attachTerminalView } from '../observe/terminal-view.ts';
import { runService, type RunningService } from '../poller/service-runner.ts';
import { exitOnError, onShutdown } from './process.ts';

const USAGE = `Usage: npm start [-- --stage <stage>] [--function <name>] [--config <file>] [--partitions <n>]

Runs the Sluice triggers of serverless.yml locally. With no bootstrapServers, custom.sluice.bootstrapServers
or KAFKA_BROKERS, a local Apache Kafka is started and the declared topics are created (--partitions, default 3).
Send records with: npm run produce -- <topic> '<value>' …`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      stage: { type: 'string' },
      function: { type: 'string', short: 'f' },
      config: { type: 'string', short: 'c' },
      partitions: { type: 'string', default: '3' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const logger = createLogger('sluice');
  const service = await loadService({ rootDir: process.cwd(), ...(values.config ? { file: values.config } : {}), ...(values.stage ? { stage: values.stage } : {}) });
  const triggers = service.triggers.filter((t) => t.enabled && (!values.function || t.functionName === values.function));
  if (triggers.length === 0) {
    const known = [...new Set(service.triggers.map((t) => t.functionName))].join(', ') || 'none';
    throw new Error(values.function ? `No enabled sluice trigger for function "${values.function}" (functions with triggers: ${known}).` : 'serverless.yml declares no enabled sluice trigger; add a `sluice:` event to a function.');
  }

  let broker: BrokerHandle | undefined;
  let running: RunningService | undefined;
  const invoker = createLocalInvoker({
    rootDir: service.rootDir, service: service.service, stage: service.stage, region: service.region, logger,
    functions: triggers.map((t) => ({ functionName: t.functionName, handler: t.handler, memorySizeMb: t.memorySizeMb, environment: t.environment })),
  });
  onShutdown(logger, async () => {
    await running?.stop();
    await invoker.close();
    if (broker?.startedHere) await broker.stop();
  });

  if (triggers.some((t) => !t.bootstrapServers)) {
    broker = await ensureBroker({ log: (line) => logger.info(line) });
  }
  const events = new Instrumentation();
  attachTerminalView(events);
  running = await runService({
    triggers,
    ...(broker ? { defaultBrokers: [broker.bootstrap], createTopics: { partitions: Number(values.partitions) } } : {}),
    invoker, logger, events,
  });
  for (const t of triggers) {
    logger.info(`polling ${t.topic} for ${t.functionName}`, { group: t.consumerGroupId, brokers: (t.bootstrapServers ?? [broker?.bootstrap]).join(','), batchSize: t.batchSize });
  }
  logger.info(`ready. Send records with: npm run produce -- ${triggers[0]!.topic} '{"hello":"world"}'   (Ctrl-C stops)`);
}

main().catch(exitOnError);
