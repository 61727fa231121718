/**
 * `tail`: prints a topic's records as they arrive (or from the beginning), one block per record
 * (record-view.ts), or one JSON object per line with --json. Never commits for any group.
 */
import { createKafkaClient } from '../kafka/client.ts';
import type { Logger } from '../observe/logger.ts';
import { wholeNumber, type ParsedOptions } from './command-spec.ts';
import { recordJsonText, recordText } from './record-view.ts';
import { readTopic } from './topic-read.ts';
import { UsageError } from '../errors.ts';
import { commandLine } from '../front-door.ts';

export async function runTail(o: ParsedOptions, io: { brokers: string[]; logger: Logger; write(line: string): void; ready?(line: string): void; signal: AbortSignal }): Promise<number> {
  const topic = o.topic;
  if (typeof topic !== 'string' || !topic) throw new UsageError(`Name the topic: ${commandLine('tail', '--topic <topic>', '<topic>')}.`);
  const count = wholeNumber(o, 'count', 1);
  const stop = new AbortController();
  io.signal.addEventListener('abort', () => stop.abort(), { once: true });
  let seen = 0;
  await readTopic({
    kafka: createKafkaClient({ brokers: io.brokers, logger: io.logger, retries: 3 }),
    brokers: io.brokers, topic, start: o['from-beginning'] === true ? 'beginning' : 'end', untilEnd: o.exit === true, signal: stop.signal,
    onReady: () => io.ready?.(`reading ${topic} on ${io.brokers.join(',')}${o['from-beginning'] === true ? ' from the beginning' : ', new records only'}${o.exit === true ? ', to its end' : ''} (Ctrl-C stops)`),
    onRecord: (r) => {
      if (stop.signal.aborted) return;
      io.write(o.json === true ? recordJsonText(r) : recordText(r));
      if (count !== undefined && ++seen >= count) stop.abort();
    },
  });
  return seen;
}
