/**
 * `redrive`: sends the records an on-failure destination topic holds back to their source topic
 * (or --to), with their original key, value and headers (failure/redrive.ts), through the
 * producer that never confirms a record it did not write. It reads the destination up to its end
 * as of the start, so records failing again meanwhile are not sent round twice in one run.
 * Selects by source partition, offset range and failure reason; --dry-run lists, sends nothing.
 * What a record's headers name (reason, source topic) is printed through printable().
 */
import { createKafkaClient } from '../kafka/kafkajs/client.ts';
import { RecordProducer } from '../kafka/kafkajs/producer.ts';
import type { OutgoingRecord } from '../kafka/producer-port.ts';
import type { KafkaSecurity } from '../kafka/security.ts';
import { readFailedCopy, selected, type RedriveSelection } from '../failure/redrive.ts';
import type { Logger } from '../observe/logger.ts';
import { printable } from '../observe/printable.ts';
import { wholeNumber, type ParsedOptions } from './command-spec.ts';
import { readTopic } from './topic-read.ts';
import { UsageError } from '../errors.ts';
import { commandLine } from '../front-door.ts';

export interface RedriveReport {
  read: number;
  /** Records in the topic Sluice did not write (no source headers): left alone. */
  foreign: number;
  /** Selected reduced copies (the record did not fit the destination): not sent; where to read each record. */
  reduced?: string[];
  selected: number;
  sent: number;
  /** Per target topic. */
  to: Record<string, number>;
}

/** `security`: the cluster's SASL, IAM or TLS settings (the console passes its trigger's). */
export async function runRedrive(o: ParsedOptions, io: { brokers: string[]; logger: Logger; write(line: string): void; security?: KafkaSecurity }): Promise<RedriveReport> {
  const topic = o.topic;
  if (typeof topic !== 'string' || !topic) throw new UsageError(`Name the destination topic: ${commandLine('redrive', '--topic <topic>', '<topic>')}.`);
  const selection: RedriveSelection = {
    ...optionalNumber('partition', wholeNumber(o, 'partition')),
    ...optionalNumber('fromOffset', wholeNumber(o, 'from-offset')),
    ...optionalNumber('toOffset', wholeNumber(o, 'to-offset')),
    ...(typeof o.reason === 'string' ? { reason: o.reason } : {}),
  };
  const dryRun = o['dry-run'] === true;
  const kafka = createKafkaClient({ brokers: io.brokers, logger: io.logger, retries: 3, ...io.security });
  const report: RedriveReport = { read: 0, foreign: 0, selected: 0, sent: 0, to: {} };
  const batches = new Map<string, OutgoingRecord[]>();
  await readTopic({
    kafka, brokers: io.brokers, topic, start: 'beginning', untilEnd: true,
    onRecord: (r) => {
      report.read++;
      const copy = readFailedCopy(r);
      if (typeof copy === 'string') return void report.foreign++;
      if (!selected(copy, selection)) return;
      if ('reduced' in copy) {
        const at = `${printable(copy.source.topic)}-${copy.source.partition}@${copy.source.offset}`;
        (report.reduced ??= []).push(at);
        io.write(`not sent ${printable(topic)}-${r.partition}@${r.offset} (${printable(copy.reason)}): its copy holds no record, which did not fit the destination; read it from ${at} while retention keeps it`);
        return;
      }
      report.selected++;
      const target = typeof o.to === 'string' ? o.to : copy.source.topic;
      if (dryRun) io.write(`would send ${printable(topic)}-${r.partition}@${r.offset} (${printable(copy.reason)}, from ${printable(copy.source.topic)}-${copy.source.partition}@${copy.source.offset}) to ${printable(target)}`);
      const list = batches.get(target) ?? batches.set(target, []).get(target)!;
      // Back to the partition it came from: the order of its key there is the order it had.
      const partition = target === copy.source.topic ? { partition: copy.source.partition } : {};
      list.push({ key: copy.original.key, value: copy.original.value, headers: copy.original.headers, ...partition });
    },
  });
  if (!dryRun && batches.size > 0) {
    const producer = await RecordProducer.connect(kafka);
    try {
      for (const [target, records] of batches) {
        await producer.send(target, records);
        report.sent += records.length;
        report.to[target] = records.length;
      }
    } finally {
      await producer.disconnect();
    }
  }
  return report;
}

const optionalNumber = <K extends string>(key: K, n: number | undefined) => (n === undefined ? {} : ({ [key]: n } as Record<K, number>));

export function redriveSummary(r: RedriveReport, topic: string, dryRun: boolean): string {
  const reduced = r.reduced?.length
    ? `; ${r.reduced.length} reduced cop${r.reduced.length === 1 ? 'y' : 'ies'} not sent (the record did not fit the destination): read ${r.reduced.length === 1 ? 'it' : 'them'} from ${r.reduced.slice(0, 5).join(', ')}${r.reduced.length > 5 ? ', …' : ''}`
    : '';
  const foreign = `${reduced}${r.foreign ? `; ${r.foreign} record${r.foreign === 1 ? '' : 's'} without Sluice's failure headers left alone` : ''}`;
  if (dryRun) return `dry run: ${r.selected} of ${r.read} record${r.read === 1 ? '' : 's'} in ${topic} would be sent${foreign}`;
  const where = Object.entries(r.to).map(([t, n]) => `${n} to ${printable(t)}`).join(', ');
  return `sent ${r.sent} of ${r.read} record${r.read === 1 ? '' : 's'} in ${topic}${where ? ` (${where})` : ''}${foreign}`;
}
