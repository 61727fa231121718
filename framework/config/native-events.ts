/**
 * Pure: the Serverless Framework's own `kafka` and `msk` events, read as Sluice triggers for
 * local emulation (`custom.sluice.emulateNativeEvents: true`). On AWS these events become event
 * source mappings and AWS polls; locally nothing would run them. Sluice takes the properties
 * both understand and polls with the same event bytes and commit-after-success semantics;
 * `accessConfigurations` (secrets that only exist in AWS) is read past, not resolved.
 * A `kafka` event's `consumptionMode: Queue` (Sluice's addition to its schema, AWS's
 * SelfManagedKafkaEventSourceConfig.ConsumptionMode, plugin/deploy/native-queue.ts) makes it a
 * queue trigger, whose `onFailureDestination` is then its on-failure destination (queue mode needs
 * one); a stream event's `onFailureDestination` is read past, as before.
 */
import { isPlainObject } from './path.ts';

export type NativeKind = 'kafka' | 'msk';

/** Properties of the native events that mean the same as on a `sluice:` event. */
const SHARED = ['topic', 'batchSize', 'maximumBatchingWindow', 'startingPosition', 'startingPositionTimestamp', 'consumerGroupId', 'enabled', 'filterPatterns'] as const;

export interface NativeEvent {
  kind: NativeKind;
  index: number;
}

export function nativeEventIndexes(fn: unknown): NativeEvent[] {
  const events = isPlainObject(fn) ? fn.events : undefined;
  if (!Array.isArray(events)) return [];
  return events.flatMap((event, index): NativeEvent[] => {
    if (!isPlainObject(event)) return [];
    if (isPlainObject(event.kafka)) return [{ kind: 'kafka', index }];
    if (isPlainObject(event.msk)) return [{ kind: 'msk', index }];
    return [];
  });
}

/**
 * The `sluice:`-shaped input for a native event, and for `msk` the cluster ARN the event
 * carries as `eventSourceArn` (its `eventSource` is then `aws:kafka`, as AWS sends it).
 * `iam` is set for an `msk` event without `saslScram512`: AWS reads it with IAM (the event
 * source mapping has no SourceAccessConfigurations), and so does Sluice, except from the local
 * broker. `saslScram512`, like the `kafka` event's `accessConfigurations`, is read past.
 */
export function fromNativeEvent(
  kind: NativeKind,
  raw: Record<string, unknown>,
  at: string,
): { input: Record<string, unknown>; problems: string[]; eventSourceArn?: string; iam?: { clusterArn: string | undefined } } {
  const input: Record<string, unknown> = {};
  for (const key of SHARED) if (raw[key] !== undefined && raw[key] !== null) input[key] = raw[key];
  const problems: string[] = [];
  const mode = typeof raw.consumptionMode === 'string' ? raw.consumptionMode.toLowerCase() : raw.consumptionMode;
  if (mode !== undefined && mode !== null) {
    // A queue trigger needs its destination; a stream event's stays AWS's alone (its retries locally unchanged, nothing sent from here to AWS).
    if (kind === 'kafka') input.consumptionMode = mode;
    // Any value, so a bad one is reported as what it is (the problems name it onFailureDestination), not as missing.
    if (kind === 'kafka' && mode === 'queue' && raw.onFailureDestination !== undefined && raw.onFailureDestination !== null) input.destinationConfig = { onFailure: { destination: raw.onFailureDestination } };
    if (kind !== 'kafka') problems.push(`${at}.consumptionMode: AWS's queue mode reads self-managed Kafka only (a kafka event), not MSK. Remove it, or use a sluice event with consumptionMode: queue.`);
  }
  if (kind === 'kafka' && raw.bootstrapServers !== undefined) input.bootstrapServers = raw.bootstrapServers;
  if (kind !== 'msk') return { input, problems };
  const arn = typeof raw.arn === 'string' ? raw.arn : undefined;
  const iam = raw.saslScram512 === undefined || raw.saslScram512 === null ? { iam: { clusterArn: arn } } : {};
  return { input, problems, ...(arn === undefined ? {} : { eventSourceArn: arn }), ...iam };
}
