/**
 * `npm run produce -- <topic> [value …]`: sends records for local testing. Values come from
 * the arguments, from --file, or from stdin, as JSON lines (see produce-input.ts).
 * Brokers: --brokers, else KAFKA_BROKERS, else the local broker that `npm start` runs.
 */
import { parseArgs } from 'node:util';
import type { OutgoingRecord } from '../kafka/producer.ts';
import { createLogger } from '../observe/logger.ts';
import { runningLocalBroker } from './local-broker.ts';
import { exitOnError } from './process.ts';
import { readRecordLines, sendRecords } from './send-records.ts';

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
  const headers = (values.header ?? []).map((h): [string, string] => {
    const eq = h.indexOf('=');
    if (eq <= 0) throw new Error(`--header "${h}": write it as name=value.`);
    return [h.slice(0, eq), h.slice(eq + 1)];
  });
  const common = { ...(values.key ? { key: values.key } : {}), headers };
  let records: OutgoingRecord[];
  if (values.count) {
    const n = Number(values.count);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--count ${values.count}: give a positive whole number.`);
    records = Array.from({ length: n }, (_, i) => ({ ...common, value: JSON.stringify({ id: i + 1, amount: (i % 7) + 1, currency: i % 2 ? 'EUR' : 'USD', at: new Date().toISOString() }) }));
  } else if (args.length) {
    records = args.map((value) => ({ ...common, value }));
  } else {
    records = await readRecordLines(values.file, `Nothing to send: give values, --count, --file, or pipe JSON lines.\n\n${USAGE}`);
  }

  const given = values.brokers ?? process.env.KAFKA_BROKERS;
  const brokers = given ? given.split(',').map((b) => b.trim()) : await runningLocalBroker();
  await sendRecords({ brokers, topic, records, logger: createLogger('produce') });
  console.log(`sent ${records.length} record${records.length === 1 ? '' : 's'} to ${topic} on ${brokers.join(',')}`);
}

main().catch(exitOnError);
