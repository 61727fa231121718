import { sluiceBuildSchema, type SluiceBuildInput } from '../plugin/build/schema.ts';
import { sluiceDeploySchema, type SluiceDeployInput } from '../plugin/deploy/schema.ts';
import { schemaRegistryConfigSchema, type SchemaRegistryConfigInput } from './schema-registry.ts';
import { accessConfigurationsSchema, tlsSchema, type AccessConfigurationsInput } from './access.ts';
import { DESTINATION_FORMS, DESTINATION_PATTERN, TOPIC_NAME } from './destination.ts';
import { mskArnSchema } from './msk.ts';

/**
 * JSON schemas for what users write in serverless.yml (DESIGN §2.6). Plain draft-07 objects:
 * the Serverless plugin registers them with `configSchemaHandler.defineFunctionEvent('aws',
 * 'sluice', sluiceEventSchema)` and `defineCustomProperties`, and `npm start` validates with
 * the same objects (framework/config/validate.ts). Every `description` is also the "how to
 * fix" sentence of the error message for that property, so keep it a full sentence.
 *
 * Defaults (applied in trigger.ts, group.ts and failure.ts, not by the validator) are listed as `default`
 * annotations where they are constant; `consumerGroupId` defaults to `sluice-<service>-<function>`
 * and `maximumBatchingWindow` to 500 ms (AWS's Kafka default), which integer seconds cannot express.
 * The consumer-group tuning may also be set service-wide in `custom.sluice`; the rules that
 * relate its values to each other and to the function's timeout are checked in group.ts, and
 * those of the failure policy (a destination for every limit, no loop) in failure.ts.
 */

const HOST = String.raw`(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)`;
const BROKER = String.raw`${HOST}:[0-9]{1,5}`;
/** One broker: `host:port` (IPv6 hosts in brackets). */
export const BROKER_PATTERN = String.raw`^\s*${BROKER}\s*$`;
/** One string of comma-separated brokers: `b1:9092, b2:9092`. */
export const BROKER_LIST_PATTERN = String.raw`^\s*${BROKER}\s*(?:,\s*${BROKER}\s*)*$`;

const BOOTSTRAP_SERVERS_DESCRIPTION =
  'bootstrapServers lists the brokers as "host:port", e.g. [localhost:9092] or "b1:9092,b2:9092"; ' +
  'omit it to use custom.sluice.bootstrapServers, then KAFKA_BROKERS, then the local broker.';

/** `bootstrapServers`: a non-empty list of `host:port`, or one comma-separated string. */
export const bootstrapServersSchema = {
  description: BOOTSTRAP_SERVERS_DESCRIPTION,
  $comment: 'AWS: SelfManagedEventSource.Endpoints.KAFKA_BOOTSTRAP_SERVERS',
  anyOf: [
    { type: 'string', pattern: BROKER_LIST_PATTERN },
    { type: 'array', minItems: 1, items: { type: 'string', pattern: BROKER_PATTERN } },
  ],
} as const;

/** Ranges of Sluice's consumer-group tuning (group.ts checks how the values relate). */
export const GROUP_LIMITS = {
  maxPollIntervalMs: { minimum: 1_000, maximum: 3_600_000, default: 300_000 },
  sessionTimeoutMs: { minimum: 1_000, maximum: 3_600_000, default: 30_000 },
  heartbeatIntervalMs: { minimum: 100, maximum: 1_200_000, default: 3_000 },
  concurrency: { minimum: 1, maximum: 100, default: 4 },
  maxConsumerRestarts: { minimum: 0, maximum: 1000, default: 8 },
} as const;

/**
 * Sluice's own consumer-group tuning, the same on a `sluice:` event and in `custom.sluice`
 * except for what an omitted value falls back to.
 */
function groupTuningSchema(scope: 'event' | 'custom') {
  const omit = (name: keyof typeof GROUP_LIMITS) =>
    scope === 'event'
      ? `omit it for custom.sluice.${name}, else ${GROUP_LIMITS[name].default}`
      : `omit it for ${GROUP_LIMITS[name].default}`;
  const range = (name: keyof typeof GROUP_LIMITS) => `${GROUP_LIMITS[name].minimum}–${GROUP_LIMITS[name].maximum}`;
  return {
    maxPollIntervalMs: {
      description:
        `maxPollIntervalMs is how long the member may stay away from the group protocol, in ms ` +
        `(the rebalance timeout; Java's max.poll.interval.ms), an integer ${range('maxPollIntervalMs')} ` +
        `that leaves room for the function's timeout; ${omit('maxPollIntervalMs')}.`,
      type: 'integer',
      ...GROUP_LIMITS.maxPollIntervalMs,
    },
    sessionTimeoutMs: {
      description:
        `sessionTimeoutMs is how long the group waits for a heartbeat before it removes the member, in ms, ` +
        `an integer ${range('sessionTimeoutMs')} that the broker also allows (group.min/max.session.timeout.ms); ` +
        `${omit('sessionTimeoutMs')}.`,
      type: 'integer',
      ...GROUP_LIMITS.sessionTimeoutMs,
    },
    heartbeatIntervalMs: {
      description:
        `heartbeatIntervalMs is how often the member sends a heartbeat, in ms, an integer ${range('heartbeatIntervalMs')} ` +
        `below a third of sessionTimeoutMs; ${omit('heartbeatIntervalMs')}.`,
      type: 'integer',
      ...GROUP_LIMITS.heartbeatIntervalMs,
    },
    concurrency: {
      description:
        `concurrency is how many partitions of a trigger one poller processes at the same time, ` +
        `an integer ${range('concurrency')}; ${omit('concurrency')}.`,
      type: 'integer',
      ...GROUP_LIMITS.concurrency,
    },
    maxConsumerRestarts: {
      description:
        `maxConsumerRestarts is how many times in a row a trigger whose consumer stopped is restarted as a new member ` +
        `before the poller exits non-zero naming it, an integer ${range('maxConsumerRestarts')}; ${omit('maxConsumerRestarts')}.`,
      type: 'integer',
      ...GROUP_LIMITS.maxConsumerRestarts,
    },
  } as const;
}

/** The Kafka client and group protocol, the same on a `sluice:` event and in `custom.sluice` (engine.ts resolves them). */
const engineSchema = {
    engine: {
      description:
        'engine is the Kafka client the trigger\'s member runs on: kafkajs (the default; the classic group protocol) or librdkafka ' +
        '(@confluentinc/kafka-javascript, an optional dependency: KIP-848\'s consumer group protocol and static membership).',
      enum: ['kafkajs', 'librdkafka'],
    },
    groupProtocol: {
      description:
        'groupProtocol is how the member joins its group: consumer (KIP-848, Kafka 4.0+; only with engine librdkafka, where it is the default) ' +
        'or classic (older clusters; the only protocol kafkajs speaks).',
      enum: ['consumer', 'classic'],
    },
} as const;

export const STARTING_POSITIONS = ['LATEST', 'TRIM_HORIZON', 'AT_TIMESTAMP'] as const;

/** Ranges of the failure policy, as AWS's Kafka event source mapping (-1 means no limit). */
export const FAILURE_LIMITS = {
  maximumRetryAttempts: { minimum: -1, maximum: 10_000, default: -1 },
  maximumRecordAgeInSeconds: { minimum: 60, maximum: 604_800, default: -1 },
} as const;

/** Patterns per trigger at most (AWS's default quota is 5, raisable to 10). */
export const MAX_FILTER_PATTERNS = 10;

export const FILTER_PATTERNS_DESCRIPTION =
  `filterPatterns lists up to ${MAX_FILTER_PATTERNS} AWS event-filtering patterns, each a map or a JSON string of one, ` +
  'e.g. [{ value: { amount: [{ numeric: [">", 10] }] } }]; a record is invoked when it matches any of them, ' +
  'and committed without an invocation otherwise; omit it to invoke every record.';

/** AWS's Kafka failure settings (DESIGN §2.5); failure.ts applies defaults and the rules between them. */
const failurePolicySchema = {
  maximumRetryAttempts: {
    $comment: 'AWS: MaximumRetryAttempts',
    description:
      'maximumRetryAttempts is how many times a failed batch is retried before its records go to ' +
      'destinationConfig.onFailure.destination: an integer 0–10000, which needs that destination, or -1, the default, ' +
      'to retry until the record expires (maximumRecordAgeInSeconds); with a destination, -1 means 10 retries, as on AWS.',
    type: 'integer',
    ...FAILURE_LIMITS.maximumRetryAttempts,
  },
  maximumRecordAgeInSeconds: {
    $comment: 'AWS: MaximumRecordAgeInSeconds',
    description:
      'maximumRecordAgeInSeconds is how old a record may get before it goes to destinationConfig.onFailure.destination ' +
      'instead of being retried: an integer 60–604800 (7 days), which needs that destination, or -1, the default, for no limit.',
    type: 'integer',
    default: FAILURE_LIMITS.maximumRecordAgeInSeconds.default,
    anyOf: [
      { const: -1 },
      { minimum: FAILURE_LIMITS.maximumRecordAgeInSeconds.minimum, maximum: FAILURE_LIMITS.maximumRecordAgeInSeconds.maximum },
    ],
  },
  bisectBatchOnFunctionError: {
    $comment: 'AWS: BisectBatchOnFunctionError',
    description:
      'bisectBatchOnFunctionError is true or false: true splits a failed batch in two and retries each half, ' +
      'so one bad record does not hold back the others; default false.',
    type: 'boolean',
    default: false,
  },
  functionResponseType: {
    $comment: 'AWS: FunctionResponseTypes',
    description:
      'functionResponseType: ReportBatchItemFailures lets the handler return { batchItemFailures: [{ itemIdentifier }] } ' +
      'so that only the records from the lowest failed one on are retried; omit it to retry the whole batch.',
    enum: ['ReportBatchItemFailures'],
  },
  destinationConfig: {
    $comment: 'AWS: DestinationConfig',
    description:
      'destinationConfig.onFailure.destination is where records go that fail every retry or expire, ' +
      'e.g. destinationConfig: { onFailure: { destination: kafka://orders-failed } }.',
    type: 'object',
    properties: {
      onFailure: {
        $comment: 'AWS: DestinationConfig.OnFailure',
        description: 'onFailure holds the destination, e.g. onFailure: { destination: kafka://orders-failed }.',
        type: 'object',
        properties: {
          destination: { description: DESTINATION_FORMS, $comment: 'AWS: DestinationConfig.OnFailure.Destination', type: 'string', pattern: DESTINATION_PATTERN },
        },
        required: ['destination'],
        additionalProperties: false,
      },
    },
    required: ['onFailure'],
    additionalProperties: false,
  },
} as const;

/** One `sluice:` function event. */
export const sluiceEventSchema = {
  description: 'A sluice trigger is a map of properties with at least a topic, e.g. "sluice: { topic: orders }".',
  type: 'object',
  properties: {
    topic: {
      $comment: 'AWS: Topics',
      description: 'topic is the Kafka topic to consume: 1–249 letters, digits, ".", "_" or "-".',
      type: 'string',
      pattern: `^${TOPIC_NAME}$`,
    },
    bootstrapServers: bootstrapServersSchema,
    batchSize: {
      $comment: 'AWS: BatchSize',
      description: 'batchSize is the number of records per invocation, 1–10000.',
      type: 'integer',
      minimum: 1,
      maximum: 10000,
      default: 100,
    },
    parallelizationFactor: {
      $comment: 'AWS: ParallelizationFactor (Kinesis and DynamoDB Streams; AWS has none for Kafka)',
      description:
        'parallelizationFactor is how many invocations of one partition may run at once, 1–10: ' +
        'records with the same key stay in offset order, records without a key in partition order (ordering: unordered keeps none); 1 keeps the whole partition in order.',
      type: 'integer',
      minimum: 1,
      maximum: 10,
      default: 1,
    },
    consumptionMode: {
      $comment: 'AWS: SelfManagedKafkaEventSourceConfig.ConsumptionMode (queue mode, share groups, KIP-932)',
      description:
        'consumptionMode is stream (a consumer group: each partition to one poller, in order, offsets committed) ' +
        'or queue (a share group: every poller takes records of every partition, each record accepted, released for a retry or rejected; no order; Kafka 4.2 or later).',
      enum: ['stream', 'queue'],
      default: 'stream',
    },
    ordering: {
      description:
        'ordering is what parallelizationFactor above 1 keeps in order: key (each key\'s records in offset order, records without a key in partition order) ' +
        'or unordered (any record of the partition may run beside any other: for records whose order does not matter, such as a topic without keys).',
      enum: ['key', 'unordered'],
      default: 'key',
    },
    ...engineSchema,
    groupInstanceId: {
      description:
        'groupInstanceId makes the member static (KIP-345, engine librdkafka): a restart within the session keeps its partitions. ' +
        '1–249 letters, digits, ".", "_" or "-", distinct per poller in the group: derive it per task or pod, e.g. ${env:HOSTNAME}.',
      type: 'string',
      pattern: '^[A-Za-z0-9._-]{1,249}$',
    },
    maximumBatchingWindow: {
      $comment: 'AWS: MaximumBatchingWindowInSeconds',
      description:
        'maximumBatchingWindow is how long to gather records before invoking, in whole seconds, 0–300; ' +
        'omit it for 500 ms, as AWS for Kafka.',
      type: 'integer',
      minimum: 0,
      maximum: 300,
    },
    startingPosition: {
      $comment: 'AWS: StartingPosition',
      description: 'startingPosition is where a new consumer group starts: LATEST, TRIM_HORIZON or AT_TIMESTAMP.',
      enum: [...STARTING_POSITIONS],
      default: 'TRIM_HORIZON',
    },
    startingPositionTimestamp: {
      $comment: 'AWS: StartingPositionTimestamp',
      description:
        'startingPositionTimestamp is the time to start from, in epoch seconds, with startingPosition: AT_TIMESTAMP.',
      type: 'number',
      minimum: 0,
    },
    consumerGroupId: {
      $comment: 'AWS: SelfManagedKafkaEventSourceConfig.ConsumerGroupId (AmazonManagedKafkaEventSourceConfig for MSK)',
      description:
        'consumerGroupId is 1–200 letters, digits or -/*:_+=.@ characters; ' +
        'omit it for sluice-<service>-<function> (with -<topic> when the function has several triggers).',
      type: 'string',
      minLength: 1,
      maxLength: 200,
      pattern: '^[a-zA-Z0-9-\\/*:_+=.@-]*$',
    },
    enabled: {
      $comment: 'AWS: Enabled',
      description: 'enabled is true or false; a disabled trigger is not polled.',
      type: 'boolean',
      default: true,
    },
    ...groupTuningSchema('event'),
    ...failurePolicySchema,
    filterPatterns: {
      $comment: 'AWS: FilterCriteria.Filters[].Pattern',
      description: FILTER_PATTERNS_DESCRIPTION,
      type: 'array',
      maxItems: MAX_FILTER_PATTERNS,
      default: [],
      items: { anyOf: [{ type: 'object' }, { type: 'string' }] },
    },
    accessConfigurations: accessConfigurationsSchema,
    tls: tlsSchema,
    arn: mskArnSchema,
    schemaRegistryConfig: schemaRegistryConfigSchema,
  },
  required: ['topic'],
  additionalProperties: false,
  // Cross-field rule: startingPositionTimestamp is required with AT_TIMESTAMP and only then.
  if: { properties: { startingPosition: { const: 'AT_TIMESTAMP' } }, required: ['startingPosition'] },
  then: { required: ['startingPositionTimestamp'] },
  else: { not: { required: ['startingPositionTimestamp'] } },
} as const;

/** Service-wide settings under `custom.sluice`. */
export const sluiceCustomSchema = {
  description: 'custom.sluice holds service-wide Sluice settings, e.g. "sluice: { bootstrapServers: localhost:9092 }".',
  type: 'object',
  properties: {
    bootstrapServers: bootstrapServersSchema,
    emulateNativeEvents: {
      description:
        'emulateNativeEvents: true makes npm start / serverless sluice start also poll the functions\' native kafka and msk events locally, with the same event bytes; default false.',
      type: 'boolean',
      default: false,
    },
    ...groupTuningSchema('custom'),
    ...engineSchema,
    http: {
      description: 'http holds the poller\'s health server settings, e.g. "http: { port: 9464 }" (/healthz, /readyz).',
      type: 'object',
      properties: {
        port: {
          description: 'port is the health server\'s TCP port, an integer 0–65535 (0: any free port); omit it for 9464 (SLUICE_HTTP_PORT overrides it).',
          type: 'integer',
          minimum: 0,
          maximum: 65535,
          default: 9464,
        },
      },
      additionalProperties: false,
    },
    metrics: {
      description: 'metrics holds the deployed poller\'s CloudWatch metrics settings, e.g. "metrics: { namespace: Shop/Sluice, period: 60 }".',
      type: 'object',
      properties: {
        namespace: {
          description:
            'namespace is the CloudWatch namespace of the poller\'s metrics (OffsetLag, Invocations, Errors, Throttles): 1–255 letters, digits and . - _ / # :, ' +
            'not starting with : or AWS/, e.g. Shop/Sluice; default Sluice.',
          type: 'string',
          pattern: '^(?!AWS/)(?!:)[A-Za-z0-9._/#:-]{1,255}$',
          default: 'Sluice',
        },
        period: {
          description: 'period is how often, in seconds, the poller writes its metrics to the log, an integer 1–3600 (below 60: high-resolution metrics); default 60.',
          type: 'integer',
          minimum: 1,
          maximum: 3600,
          default: 60,
        },
      },
      additionalProperties: false,
    },
    deploy: sluiceDeploySchema,
    build: sluiceBuildSchema,
  },
  additionalProperties: false,
} as const;

/** Sluice's consumer-group tuning as written, on an event or in `custom.sluice` (before defaults). */
export interface GroupTuningInput {
  maxPollIntervalMs?: number;
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  concurrency?: number;
  maxConsumerRestarts?: number;
}

/** The failure policy as written (before defaults; failure.ts). */
export interface FailurePolicyInput {
  maximumRetryAttempts?: number;
  maximumRecordAgeInSeconds?: number;
  bisectBatchOnFunctionError?: boolean;
  functionResponseType?: 'ReportBatchItemFailures';
  destinationConfig?: { onFailure: { destination: string } };
}

/** A `sluice:` event as the schema admits it (before defaults). */
export interface SluiceEventInput extends GroupTuningInput, FailurePolicyInput {
  topic: string;
  bootstrapServers?: string | string[];
  batchSize?: number;
  parallelizationFactor?: number;
  ordering?: 'key' | 'unordered';
  consumptionMode?: 'stream' | 'queue';
  engine?: 'kafkajs' | 'librdkafka';
  groupProtocol?: 'consumer' | 'classic';
  groupInstanceId?: string;
  maximumBatchingWindow?: number;
  startingPosition?: (typeof STARTING_POSITIONS)[number];
  startingPositionTimestamp?: number;
  consumerGroupId?: string;
  enabled?: boolean;
  /** Maps, or JSON strings of maps (filters.ts parses them). */
  filterPatterns?: Array<Record<string, unknown> | string>;
  accessConfigurations?: AccessConfigurationsInput;
  tls?: boolean;
  /** An MSK cluster ARN (msk.ts): IAM unless accessConfigurations names a SASL secret or a client certificate. */
  arn?: string;
  schemaRegistryConfig?: SchemaRegistryConfigInput;
}

/** `custom.sluice` as the schema admits it. */
export interface SluiceCustomInput extends GroupTuningInput {
  bootstrapServers?: string | string[];
  engine?: 'kafkajs' | 'librdkafka';
  groupProtocol?: 'consumer' | 'classic';
  emulateNativeEvents?: boolean;
  http?: { port?: number };
  metrics?: { namespace?: string; period?: number };
  deploy?: SluiceDeployInput;
  build?: SluiceBuildInput;
}
