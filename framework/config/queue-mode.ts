/**
 * `consumptionMode: queue` (issue 43, docs/queue-mode.md): what a queue trigger may set. A share
 * group has no partition order, no committed offsets and no fetch to gather records in, so the
 * settings about those are refused with what to do instead; and the broker gives a record up after
 * its delivery limit (group.share.delivery.count.limit, 5 by default), so the retries must end,
 * in the on-failure destination, before it does.
 */
import type { SluiceEventInput } from './schema.ts';

/** Kafka's default group.share.delivery.count.limit: a record delivered this often is archived by the broker. */
export const BROKER_DELIVERY_LIMIT = 5;

export function queueModeProblems(event: SluiceEventInput, path: string): string[] {
  if (event.consumptionMode !== 'queue') return [];
  const at = (field: string) => `${path}.${field}`;
  const problems: string[] = [];
  const scale = 'in queue mode every poller takes records of every partition: run more pollers to go past the partition count';
  if (event.parallelizationFactor !== undefined && event.parallelizationFactor !== 1) problems.push(`${at('parallelizationFactor')} is for stream mode; ${scale}. Remove it.`);
  if (event.ordering !== undefined) problems.push(`${at('ordering')} is for stream mode: a share group keeps no order. Remove it.`);
  if (event.maximumBatchingWindow !== undefined) problems.push(`${at('maximumBatchingWindow')} is for stream mode: a share fetch hands over what is there. Remove it.`);
  if (event.bisectBatchOnFunctionError) problems.push(`${at('bisectBatchOnFunctionError')} is for stream mode: in queue mode each record of a failed invocation is released and delivered again on its own. Remove it.`);
  if (event.groupInstanceId !== undefined) problems.push(`${at('groupInstanceId')} is for stream mode (static membership of a consumer group). Remove it.`);
  if (event.startingPosition === 'AT_TIMESTAMP') problems.push(`${at('startingPosition')}: AT_TIMESTAMP is for stream mode; a share group starts at TRIM_HORIZON (earliest) or LATEST.`);
  if (event.schemaRegistryConfig !== undefined) problems.push(`${at('schemaRegistryConfig')} is not supported in queue mode yet: decode in the handler, or use stream mode.`);
  if (!event.destinationConfig?.onFailure) {
    problems.push(`${at('destinationConfig.onFailure')} is required in queue mode: the broker gives a record up after ${BROKER_DELIVERY_LIMIT} deliveries, and Sluice sends it to the destination before then. Add destinationConfig: { onFailure: { destination: kafka://<topic> } }.`);
  }
  const retries = event.maximumRetryAttempts;
  if (retries !== undefined && (retries < 0 || retries > BROKER_DELIVERY_LIMIT - 1)) {
    problems.push(`${at('maximumRetryAttempts')} is ${retries}; in queue mode it is 0–${BROKER_DELIVERY_LIMIT - 1} (the broker gives a record up after ${BROKER_DELIVERY_LIMIT} deliveries, group.share.delivery.count.limit). Unset, it is ${BROKER_DELIVERY_LIMIT - 1}.`);
  }
  return problems;
}

/** Retries of a queue trigger: its maximumRetryAttempts, or as many as the broker's delivery limit leaves. */
export function queueRetries(maximumRetryAttempts: number): number {
  return maximumRetryAttempts >= 0 ? Math.min(maximumRetryAttempts, BROKER_DELIVERY_LIMIT - 1) : BROKER_DELIVERY_LIMIT - 1;
}
