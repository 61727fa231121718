/**
 * `npm start`: runs every Sluice trigger of ./serverless.yml locally (see run-local.ts; the
 * Serverless plugin's `serverless sluice start` runs the same code). Ctrl-C finishes in-flight
 * invocations, commits them, leaves the groups and stops what it started.
 */
import { parseArgs } from 'node:util';
import { loadService } from '../config/load.ts';
import { createLogger } from '../observe/logger.ts';
import { exitOnError, onShutdown } from './process.ts';
import { runLocal } from './run-local.ts';

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
  const run = runLocal({ service, logger, partitions: Number(values.partitions), ...(values.function ? { functionFilter: values.function } : {}) });
  onShutdown(logger, run.stop);
  await run.ready;
}

main().catch(exitOnError);
