/**
 * Pure: what a FIFO queue or topic (its name ends in `.fifo`) needs with each message, and a
 * standard one refuses. SQS and SNS refuse a FIFO send without MessageGroupId, and without
 * MessageDeduplicationId unless content-based deduplication is on: every send failed, and the
 * partition waited on its record for ever.
 *
 * - MessageGroupId: the source partition, so a FIFO destination keeps the order the partition had;
 * - MessageDeduplicationId: the trigger's group, the source record and the failure (reason and
 *   attempts), not the send time: a send that is tried again (a deadline, a restart before the
 *   commit) is dropped by SQS or SNS within their five-minute deduplication window, while another
 *   trigger's copy of the same record, or a later failure of it (after a redrive), is kept.
 */
import { createHash } from 'node:crypto';
import type { FailedRecord } from '../failed-record.ts';

/** SQS and SNS take at most 128 characters for either id. */
const MAX_ID_CHARS = 128;

export interface FifoParameters {
  MessageGroupId?: string;
  MessageDeduplicationId?: string;
}

export const isFifo = (name: string): boolean => name.endsWith('.fifo');

export function fifoParameters(destinationName: string, f: FailedRecord): FifoParameters {
  if (!isFifo(destinationName)) return {};
  const r = f.record;
  return {
    MessageGroupId: groupId(r.topic, r.partition),
    MessageDeduplicationId: sha256(JSON.stringify([f.consumerGroupId, r.topic, r.partition, r.offset, f.reason, f.attempts])),
  };
}

/** `<topic>-<partition>`; a topic name too long for 128 characters (Kafka allows 249) is cut and told apart by its hash. */
function groupId(topic: string, partition: number): string {
  const id = `${topic}-${partition}`;
  return id.length <= MAX_ID_CHARS ? id : `${topic.slice(0, 80)}~${sha256(topic).slice(0, 16)}-${partition}`;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
