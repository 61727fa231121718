/**
 * `consumptionMode: queue` (issue 43, docs/queue-mode.md): what a queue trigger may set. A share
 * group has no partition order, no committed offsets and no fetch to gather records in, so the
 * settings about those are refused with what to do instead; and the broker gives a record up after
 * the group's delivery limit (share.delivery.count.limit), so the retries must end, in the on-failure
 * destination, before it does: Sluice sets that limit one past its last delivery.
 */
import type { SluiceEventInput } from './schema.ts';

/**
 * The most deliveries a share group allows (Kafka's group.share.max.delivery.count.limit, 10 by
 * default). Sluice sets the group's share.delivery.count.limit one past its own last delivery
 * (queue-member.ts), so maximumRetryAttempts + 2 must fit.
 */
export const MAX_GROUP_DELIVERY_LIMIT = 10;
/** Retries when maximumRetryAttempts is unset: Kafka's default delivery limit (5) less one. */
export const DEFAULT_QUEUE_RETRIES = 4;
const MAX_QUEUE_RETRIES = MAX_GROUP_DELIVERY_LIMIT - 2;

/**
 * `native`: the event is a native `kafka` event emulated locally, whose own properties the messages
 * name (`onFailureDestination`), and which AWS deploys: its event source mapping takes no
 * starting position in queue mode.
 */
export function queueModeProblems(event: SluiceEventInput, path: string, native = false): string[] {
  if (event.consumptionMode !== 'queue') return [];
  const at = (field: string) => `${path}.${field}`;
  const problems: string[] = [];
  const scale = 'in queue mode every poller takes records of every partition: run more pollers to go past the partition count';
  if (event.parallelizationFactor !== undefined && event.parallelizationFactor !== 1) problems.push(`${at('parallelizationFactor')} is for stream mode; ${scale}. Remove it.`);
  if (event.ordering !== undefined) problems.push(`${at('ordering')} is for stream mode: a share group keeps no order. Remove it.`);
  if (event.maximumBatchingWindow !== undefined) problems.push(`${at('maximumBatchingWindow')} is for stream mode: a share fetch hands over what is there. Remove it.`);
  if (event.bisectBatchOnFunctionError) problems.push(`${at('bisectBatchOnFunctionError')} is for stream mode: in queue mode each record of a failed invocation is released and delivered again on its own. Remove it.`);
  if (event.groupInstanceId !== undefined) problems.push(`${at('groupInstanceId')} is for stream mode (static membership of a consumer group). Remove it.`);
  if (native && event.startingPosition !== undefined) {
    problems.push(`${at('startingPosition')}: AWS's event source mapping takes no starting position in queue mode (it refuses StartingPosition). Remove it; locally the share group then starts at the earliest record.`);
  } else if (event.startingPosition === 'AT_TIMESTAMP') problems.push(`${at('startingPosition')}: AT_TIMESTAMP is for stream mode; a share group starts at TRIM_HORIZON (earliest) or LATEST.`);
  if (event.schemaRegistryConfig !== undefined) problems.push(`${at('schemaRegistryConfig')} is not supported in queue mode yet: decode in the handler, or use stream mode.`);
  if (!event.destinationConfig?.onFailure && native) {
    problems.push(`${at('onFailureDestination')} is required in queue mode: the broker gives a record up after a number of deliveries, and Sluice sends it to the destination before then. Add onFailureDestination: kafka://<topic> (or an SQS queue, SNS topic or S3 bucket ARN).`);
  } else if (!event.destinationConfig?.onFailure) {
    problems.push(`${at('destinationConfig.onFailure')} is required in queue mode: the broker gives a record up after a number of deliveries, and Sluice sends it to the destination before then. Add destinationConfig: { onFailure: { destination: kafka://<topic> } }.`);
  }
  const retries = event.maximumRetryAttempts;
  if (retries !== undefined && (retries < 0 || retries > MAX_QUEUE_RETRIES)) {
    problems.push(`${at('maximumRetryAttempts')} is ${retries}; in queue mode it is 0–${MAX_QUEUE_RETRIES} (a share group allows at most ${MAX_GROUP_DELIVERY_LIMIT} deliveries of a record, and Sluice keeps one in reserve). Unset, it is ${DEFAULT_QUEUE_RETRIES}.`);
  }
  return problems;
}

/** Retries of a queue trigger: its maximumRetryAttempts, DEFAULT_QUEUE_RETRIES when unset (-1). */
export function queueRetries(maximumRetryAttempts: number): number {
  return maximumRetryAttempts >= 0 ? Math.min(maximumRetryAttempts, MAX_QUEUE_RETRIES) : DEFAULT_QUEUE_RETRIES;
}

/** The share group's share.delivery.count.limit Sluice sets: its last delivery, and one more for a lock that ran out. */
export function groupDeliveryLimit(maximumRetryAttempts: number): number {
  return queueRetries(maximumRetryAttempts) + 2;
}
