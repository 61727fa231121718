/**
 * Sending records for local testing, shared by `npm run produce` and `serverless sluice produce`:
 * JSON lines from a file or stdin (see produce-input.ts for the line format), sent in order.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { ClusterAdmin } from '../kafka/kafkajs/admin.ts';
import { createKafkaClient } from '../kafka/kafkajs/client.ts';
import { RecordProducer } from '../kafka/kafkajs/producer.ts';
import type { OutgoingRecord } from '../kafka/producer-port.ts';
import type { Logger } from '../observe/logger.ts';
import { parseRecordLine } from './produce-input.ts';
import { UsageError } from '../errors.ts';
import { commandLine } from '../front-door.ts';

/**
 * Reads JSON lines from `file`, or from stdin when no file is given; stdin on a terminal is
 * refused with `nothingToSend` (what the command accepts instead).
 */
export async function readRecordLines(file: string | undefined, nothingToSend: string): Promise<OutgoingRecord[]> {
  if (!file && process.stdin.isTTY) throw new UsageError(nothingToSend);
  const lines = createInterface({ input: file ? createReadStream(file) : process.stdin, crlfDelay: Infinity });
  const records: OutgoingRecord[] = [];
  let n = 0;
  for await (const line of lines) {
    n++;
    if (line.trim()) records.push(parseRecordLine(line, n));
  }
  // "sent 0 records" and exit 0 read as success to a script whose input was empty.
  if (records.length === 0) throw new UsageError(`${file ? `${file} holds no records` : 'stdin held no records'}. ${nothingToSend}`);
  return records;
}

/** Sends in order to an existing topic (a missing one is refused with what to do). */
export async function sendRecords(o: { brokers: string[]; topic: string; records: OutgoingRecord[]; logger: Logger }): Promise<void> {
  const kafka = createKafkaClient({ brokers: o.brokers, logger: o.logger, retries: 3 });
  const admin = await ClusterAdmin.connect(kafka, o.brokers);
  try {
    if ((await admin.missingTopics([o.topic])).length > 0) {
      throw new UsageError(
        `Topic "${o.topic}" does not exist on ${o.brokers.join(',')}. \`${commandLine('start')}\` creates the declared topics on the local Kafka; ` +
          `elsewhere, create it first: \`${commandLine('create-topics', `--topic ${o.topic} --brokers ${o.brokers.join(',')}`, `${o.topic} --brokers ${o.brokers.join(',')}`)}\`.`,
      );
    }
  } finally {
    await admin.disconnect();
  }
  const producer = await RecordProducer.connect(kafka);
  try {
    await producer.send(o.topic, o.records);
  } finally {
    await producer.disconnect();
  }
}
