/**
 * `tail`: prints a topic's records as they arrive (or from the beginning), one block per record
 * (record-view.ts), or one JSON object per line with --json. Never commits for any group.
 */
import { createKafkaClient } from '../kafka/kafkajs/client.ts';
import type { Logger } from '../observe/logger.ts';
import { wholeNumber, type ParsedOptions } from './command-spec.ts';
import { recordJsonText, recordText } from './record-view.ts';
import { readTopic } from './topic-read.ts';
import { UsageError } from '../errors.ts';
import { commandLine } from '../front-door.ts';

/** How long `tail --exit` waits for a next record before it takes the log's end as reached. */
export const EXIT_IDLE_MS = 5_000;

export async function runTail(o: ParsedOptions, io: { brokers: string[]; logger: Logger; write(line: string): void; ready?(line: string): void; signal: AbortSignal }): Promise<number> {
  const topic = o.topic;
  if (typeof topic !== 'string' || !topic) throw new UsageError(`Name the topic: ${commandLine('tail', '--topic <topic>', '<topic>')}.`);
  const count = wholeNumber(o, 'count', 1);
  const stop = new AbortController();
  io.signal.addEventListener('abort', () => stop.abort(), { once: true });
  let seen = 0;
  // --exit: a log that ends in a transaction's marker (or an open transaction) has an end no record
  // reaches, so the end is also taken as reached after EXIT_IDLE_MS without a record.
  let idle: NodeJS.Timeout | undefined;
  const quiet = () => {
    clearTimeout(idle);
    if (o.exit === true) idle = setTimeout(() => stop.abort(), EXIT_IDLE_MS);
  };
  stop.signal.addEventListener('abort', () => clearTimeout(idle), { once: true });
  await readTopic({
    kafka: createKafkaClient({ brokers: io.brokers, logger: io.logger, retries: 3 }),
    brokers: io.brokers, topic, start: o['from-beginning'] === true ? 'beginning' : 'end', untilEnd: o.exit === true, signal: stop.signal,
    onReady: () => (quiet(), io.ready?.(`reading ${topic} on ${io.brokers.join(',')}${o['from-beginning'] === true ? ' from the beginning' : ', new records only'}${o.exit === true ? ', to its end' : ''} (Ctrl-C stops)`)),
    onRecord: (r) => {
      if (stop.signal.aborted) return;
      quiet();
      io.write(o.json === true ? recordJsonText(r) : recordText(r));
      if (count !== undefined && ++seen >= count) stop.abort();
    },
  }).finally(() => clearTimeout(idle));
  return seen;
}
