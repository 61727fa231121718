/**
 * `npm run produce -- <topic> [value …]`: sends records for local testing. Values come from
 * the arguments, from --value, --file, or stdin, as JSON lines (see produce-records.ts). The flags
 * are `serverless sluice produce`'s (plugin/produce-options.ts), the topic also as the first argument.
 * Brokers: --brokers, else KAFKA_BROKERS, else the local broker that `npm start` runs.
 */
import { UsageError } from '../errors.ts';
import { createLogger } from '../observe/logger.ts';
import { PRODUCE_OPTIONS } from '../plugin/produce-options.ts';
import { brokersOf } from './cli-command.ts';
import { parseArgv } from './command-spec.ts';
import { exitOnError } from './process.ts';
import { nothingToSend, recordsToSend } from './produce-records.ts';
import { maybeFramed } from './produce-schema.ts';
import { sendRecords } from './send-records.ts';

const USAGE = `Usage: npm run produce -- <topic> [value …] [--key <key>] [--header name=value …] [--value <value>] [--count <n>] [--file <jsonl>] [--brokers host:port]
       [--subject <subject> [--registry <url>] [--message <type>]]
       (or --topic <topic>, as npx serverless sluice produce takes it)

  npm run produce -- orders '{"id":1}' '{"id":2}'
  npm run produce -- orders --count 100            (sample records)
  npm run produce -- payments --file payments.jsonl  (one JSON value or {"key","value","headers"} per line)
  npm run produce -- orders --subject orders-value '{"id":1}'  (Avro, Protobuf or JSON Schema, as the registry's schema says)`;

/** PRODUCE_OPTIONS as parseArgs options: one table for both doors. */
const OPTIONS = Object.fromEntries(
  Object.entries(PRODUCE_OPTIONS).map(([name, o]) => [name, { type: o.type === 'boolean' ? ('boolean' as const) : ('string' as const), ...(o.type === 'multiple' ? { multiple: true } : {}), ...(o.shortcut ? { short: o.shortcut } : {}) }]),
);

async function main(): Promise<void> {
  const { values, positionals } = parseArgv({ ...OPTIONS, help: { type: 'boolean', short: 'h' } }, USAGE);
  const given = values as Record<string, string | string[] | boolean | undefined>;
  if (given.help) return void console.log(USAGE);
  const fromFlag = typeof given.topic === 'string' ? given.topic : undefined;
  const [topic, ...args] = fromFlag === undefined ? positionals : [fromFlag, ...positionals];
  if (!topic) throw new UsageError(`Which topic? Give it first, or as --topic.\n\n${USAGE}`);
  const str = (name: string) => (typeof given[name] === 'string' ? (given[name] as string) : undefined);
  const records = await recordsToSend(
    { key: str('key'), headers: given.header as string[] | undefined, count: str('count'), values: [...(str('value') !== undefined ? [str('value')!] : []), ...args], file: str('file') },
    nothingToSend(),
    (line) => console.error(line),
  );

  const framed = await maybeFramed(records, { subject: str('subject'), registry: str('registry'), message: str('message') }, (line) => console.error(line));
  const brokers = await brokersOf({ brokers: str('brokers') });
  await sendRecords({ brokers, topic, records: framed, logger: createLogger('produce') });
  console.log(`sent ${records.length} record${records.length === 1 ? '' : 's'} to ${topic} on ${brokers.join(',')}`);
}

main().catch(exitOnError);
