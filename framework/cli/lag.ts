/**
 * `npm run lag`: for each Sluice trigger of ./serverless.yml, its consumer group's members and,
 * per partition, the committed offset, the log-end offset and the lag, read from the broker.
 * Brokers: the trigger's, else custom.sluice.bootstrapServers, else KAFKA_BROKERS, else the
 * local Kafka that `npm start` runs (which must be running).
 */
import { createLogger } from '../observe/logger.ts';
import { noArguments, parseArgv } from './command-spec.ts';
import { printableJson } from '../observe/printable.ts';
import { localBrokersFor } from './local-broker.ts';
import { formatLag } from './lag-report.ts';
import { readLag } from './lag-read.ts';
import { loadServiceFromArgs, selectTriggers, SERVICE_OPTIONS } from './service-args.ts';
import { exitOnError } from './process.ts';

const USAGE = `Usage: npm run lag [-- --function <name>] [--stage <stage>] [--config <file>] [--json]

Shows each trigger's consumer group: members, and per partition the committed offset, the log-end
offset and the lag. --json prints the same as one JSON document.`;

async function main(): Promise<void> {
  const { values: given, positionals } = parseArgv({ ...SERVICE_OPTIONS, json: { type: 'boolean' } }, USAGE);
  const values = given as { help?: boolean; stage?: string; function?: string; config?: string; json?: boolean };
  if (values.help) {
    console.log(USAGE);
    return;
  }
  noArguments(positionals, USAGE);
  const service = await loadServiceFromArgs(values);
  const triggers = selectTriggers(service, values.function);
  const defaultBrokers = await localBrokersFor(triggers);
  const reports = await readLag({ triggers, logger: createLogger('lag'), ...(defaultBrokers ? { defaultBrokers } : {}) });
  console.log(values.json ? printableJson(JSON.stringify(reports, null, 2)) : formatLag(reports));
}

main().catch(exitOnError);
