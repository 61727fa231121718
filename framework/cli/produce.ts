/**
 * `npm run produce -- <topic> [value …]`: sends records for local testing. Values come from
 * the arguments, from --file, or from stdin, as JSON lines (see produce-input.ts).
 * Brokers: --brokers, else KAFKA_BROKERS, else the local broker that `npm start` runs.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { brokerStatus } from '../../infra/kafka/broker.ts';
import { createKafkaClient } from '../kafka/client.ts';
import { RecordProducer, type OutgoingRecord } from '../kafka/producer.ts';
import { createLogger } from '../observe/logger.ts';
import { exitOnError } from './process.ts';
import { parseRecordLine } from './produce-input.ts';

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
    records = await readLines(values.file);
  }

  const brokers = (values.brokers ?? process.env.KAFKA_BROKERS ?? (await localBroker())).split(',').map((b) => b.trim());
  const logger = createLogger('produce');
  const producer = await RecordProducer.connect(createKafkaClient({ brokers, logger, retries: 3 }));
  try {
    await producer.send(topic, records);
  } finally {
    await producer.disconnect();
  }
  console.log(`sent ${records.length} record${records.length === 1 ? '' : 's'} to ${topic} on ${brokers.join(',')}`);
}

async function localBroker(): Promise<string> {
  const status = await brokerStatus();
  if (!status.running || !status.bootstrap) {
    throw new Error('No brokers given and the local Kafka is not running: start it with `npm start`, or pass --brokers / KAFKA_BROKERS.');
  }
  return status.bootstrap;
}

async function readLines(file: string | undefined): Promise<OutgoingRecord[]> {
  if (!file && process.stdin.isTTY) throw new Error(`Nothing to send: give values, --count, --file, or pipe JSON lines.\n\n${USAGE}`);
  const lines = createInterface({ input: file ? createReadStream(file) : process.stdin, crlfDelay: Infinity });
  const records: OutgoingRecord[] = [];
  let n = 0;
  for await (const line of lines) {
    n++;
    if (line.trim()) records.push(parseRecordLine(line, n));
  }
  return records;
}

main().catch(exitOnError);
