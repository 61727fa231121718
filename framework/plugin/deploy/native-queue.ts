/**
 * AWS's queue mode on the Serverless Framework's own `kafka` event. Neither osls 3 nor 4 knows
 * the event source mapping's SelfManagedKafkaEventSourceConfig.ConsumptionMode, so the plugin adds
 * `consumptionMode` to the event's schema, and after the framework compiled the event it sets the
 * property on the mapping and takes out the StartingPosition osls always writes (TRIM_HORIZON when
 * none is given), which AWS refuses in queue mode. Locally (`custom.sluice.emulateNativeEvents`)
 * the same event runs as a queue trigger (config/native-events.ts). Pure.
 */
import { isPlainObject } from '../../config/path.ts';
import { ConfigError } from '../../errors.ts';

export const KAFKA_EVENT_PROPERTIES = {
  properties: {
    consumptionMode: {
      description:
        'consumptionMode is Stream (the default: a consumer group, each partition in order) or Queue (a share group, KIP-932: records of every partition to every poller, ' +
        'no order; Kafka 4.2 or later), as the event source mapping\'s SelfManagedKafkaEventSourceConfig.ConsumptionMode. Added by serverless-sluice.',
      enum: ['Stream', 'Queue', 'stream', 'queue'],
    },
  },
} as const;

/** Properties AWS refuses beside ConsumptionMode: Queue (its Kafka parameters page). */
const NOT_IN_QUEUE_MODE = ['startingPosition', 'startingPositionTimestamp', 'maximumBatchingWindow'] as const;

export interface KafkaEventOf {
  functionKey: string;
  index: number;
  event: Record<string, unknown>;
}

/** Each function's `kafka` events, as written. */
export function kafkaEvents(functions: ReadonlyArray<{ key: string; events: unknown }>): KafkaEventOf[] {
  return functions.flatMap(({ key, events }) =>
    (Array.isArray(events) ? events : []).flatMap((e, index): KafkaEventOf[] => (isPlainObject(e) && isPlainObject(e.kafka) ? [{ functionKey: key, index, event: e.kafka }] : [])),
  );
}

const isQueue = (event: Record<string, unknown>) => typeof event.consumptionMode === 'string' && event.consumptionMode.toLowerCase() === 'queue';

/**
 * Sets ConsumptionMode: Queue on the mapping of each queue-mode `kafka` event in `resources` (the
 * compiled template's), without StartingPosition; returns their logical ids. A queue-mode event that
 * sets what AWS refuses in queue mode is a ConfigError naming it.
 */
export function markQueueMappings(events: readonly KafkaEventOf[], resources: Record<string, unknown>, logicalId: (functionKey: string, topic: string) => string): string[] {
  const queue = events.filter((e) => isQueue(e.event));
  const refused = queue.flatMap(({ functionKey, index, event }) =>
    NOT_IN_QUEUE_MODE.filter((k) => event[k] !== undefined).map((k) => `functions.${functionKey}.events[${index}].kafka.${k}: AWS refuses it with consumptionMode: Queue. Remove it.`),
  );
  if (refused.length > 0) throw new ConfigError(refused.join('\n'));
  return queue.map(({ functionKey, event }) => {
    const id = logicalId(functionKey, String(event.topic));
    const mapping = resources[id] as { Type?: string; Properties?: Record<string, unknown> } | undefined;
    if (mapping?.Type !== 'AWS::Lambda::EventSourceMapping' || !mapping.Properties) {
      throw new Error(`The kafka event of function "${functionKey}" (topic ${String(event.topic)}) has no ${id} event source mapping in the compiled template.`);
    }
    const { StartingPosition: _omitted, ...rest } = mapping.Properties;
    const config = isPlainObject(rest.SelfManagedKafkaEventSourceConfig) ? rest.SelfManagedKafkaEventSourceConfig : {};
    mapping.Properties = { ...rest, SelfManagedKafkaEventSourceConfig: { ...config, ConsumptionMode: 'Queue' } };
    return id;
  });
}
