/**
 * Typed partial batch responses (`functionResponseType: ReportBatchItemFailures`) for handler
 * authors, in AWS's documented shape for Kafka, so the same handler works on AWS.
 */
import type { SelfManagedKafkaEvent, SelfManagedKafkaRecord } from 'aws-lambda';

export interface KafkaBatchItemFailure {
  itemIdentifier: { partition: string; offset: number };
}

export interface KafkaBatchResponse {
  batchItemFailures: KafkaBatchItemFailure[];
}

type RecordId = Pick<SelfManagedKafkaRecord, 'topic' | 'partition' | 'offset'>;

/** The response naming `failed` records (an empty list means every record succeeded). */
export function batchResponse(failed: Iterable<RecordId>): KafkaBatchResponse {
  return { batchItemFailures: [...failed].map((r) => ({ itemIdentifier: { partition: `${r.topic}-${r.partition}`, offset: r.offset } })) };
}

/**
 * Runs `handle` for each record, partition by partition in offset order, and reports the
 * first failure of each partition: the poller retries from there, so later records of that
 * partition are not attempted in this invocation. A record's error is printed with its stack
 * (`console.error`, so CloudWatch on AWS and the terminal locally show it): a batch response has
 * no room for it, and the poller knows only which offset failed. Its trigger must set
 * `functionResponseType: ReportBatchItemFailures`, or the response is ignored (as on AWS) and the
 * failed records count as done: the poller warns when that happens.
 */
export async function eachRecord(event: SelfManagedKafkaEvent, handle: (record: SelfManagedKafkaRecord) => Promise<void>): Promise<KafkaBatchResponse> {
  const failed: RecordId[] = [];
  for (const records of Object.values(event.records)) {
    for (const record of records) {
      try {
        await handle(record);
      } catch (e) {
        console.error(`record ${record.topic}-${record.partition}@${record.offset} failed:`, e);
        failed.push(record);
        break;
      }
    }
  }
  return batchResponse(failed);
}
