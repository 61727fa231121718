/**
 * `npm run produce -- <topic> [value …]`: sends records for local testing. Values come from
 * the arguments, from --file, or from stdin, as JSON lines (see produce-input.ts).
 * Brokers: --brokers, else KAFKA_BROKERS, else the local broker that `npm start` runs.
 */
import { parseArgs } from 'node:util';
import { createLogger } from '../observe/logger.ts';
import { brokersOf } from './cli-command.ts';
import { exitOnError } from './process.ts';
import { recordsToSend } from './produce-records.ts';
import { sendRecords } from './send-records.ts';
import { UsageError } from '../errors.ts';

const USAGE = `Usage: npm run produce -- <topic> [value …] [--key <key>] [--header name=value …] [--count <n>] [--file <jsonl>] [--brokers host:port]

  npm run produce -- orders '{"id":1}' '{"id":2}'
  npm run produce -- orders --count 100            (sample records)
  npm run produce -- payments --file payments.jsonl  (one JSON value or {"key","value","headers"} per line)`;

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      key: { type: 'string', short: 'k' },
      header: { type: 'string', multiple: true, short: 'H' },
      count: { type: 'string', short: 'n' },
      file: { type: 'string' },
      brokers: { type: 'string', short: 'b' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [topic, ...args] = positionals;
  if (values.help || !topic) {
    console.log(USAGE);
    process.exitCode = values.help ? 0 : 2;
    return;
  }
  const records = await recordsToSend(
    { key: values.key, headers: values.header, count: values.count, values: args, file: values.file },
    `Nothing to send: give values, --count, --file, or pipe JSON lines.\n\n${USAGE}`,
    (line) => console.error(line),
  );

  const brokers = await brokersOf({ brokers: values.brokers });
  await sendRecords({ brokers, topic, records, logger: createLogger('produce') });
  console.log(`sent ${records.length} record${records.length === 1 ? '' : 's'} to ${topic} on ${brokers.join(',')}`);
}

main().catch(exitOnError);
