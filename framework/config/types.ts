/** Resolved, validated configuration: what the poller and invokers consume. */

export type StartingPosition = 'LATEST' | 'TRIM_HORIZON' | 'AT_TIMESTAMP';

/** Where records go that the failure policy gives up on (`destinationConfig.onFailure.destination`). */
export type Destination =
  | { kind: 'kafka'; uri: string; topic: string }
  | { kind: 'sqs'; uri: string; region: string; accountId: string; name: string }
  | { kind: 'sns'; uri: string; region: string; accountId: string; name: string }
  | { kind: 's3'; uri: string; bucket: string };

/** AWS's Kafka event source mapping failure settings, resolved. */
export interface FailurePolicy {
  /** As written: -1 means until the record expires (capped at 10 when a destination is set, as AWS). */
  maximumRetryAttempts: number;
  /** `maximumRecordAgeInSeconds` × 1000; undefined for -1 (records never expire). */
  maximumRecordAgeMs: number | undefined;
  bisectBatchOnFunctionError: boolean;
  /** `functionResponseType: ReportBatchItemFailures`. */
  reportBatchItemFailures: boolean;
  /** Required when a limit is set (a retry count ≥ 0 or a record age): Sluice never drops a record. Never the trigger's own topic. */
  onFailure: Destination | undefined;
}

export type SaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512';

/**
 * How a trigger's Kafka clients authenticate (`accessConfigurations`, framework/config/access.ts):
 * Secrets Manager ARNs only, never secret values; framework/kafka/security.ts resolves them.
 */
export interface KafkaAccess {
  /** From `saslPlainAuth`, `saslScram256Auth` or `saslScram512Auth` (at most one is set). */
  sasl?: { mechanism: SaslMechanism; secretArn: string };
  /** `clientCertificateTlsAuth`: mutual TLS. */
  clientCertificateSecretArn?: string;
  /** `serverRootCaCertificate`: the CA the brokers' certificates are checked against (else the system's). */
  rootCaSecretArn?: string;
  /**
   * MSK IAM (SASL/OAUTHBEARER, tokens signed with the AWS SDK's default credentials): an MSK
   * trigger (`arn`, or an emulated `msk` event) with no SASL secret and no client certificate,
   * whose brokers are not the local broker. Always with TLS. `clusterArn` is unset only for an
   * emulated `msk` event whose `arn` is a CloudFormation reference.
   */
  iam?: { clusterArn?: string };
  /** Connect with TLS: `tls` as written, else true whenever one of the above is set (AWS uses SASL only over TLS). */
  tls: boolean;
}

/** One `sluice:` event of one function, with every default applied. */
export interface TriggerSpec {
  /** The key under `functions:` in serverless.yml. */
  functionName: string;
  /** `handler:` as written, e.g. `functions/orders.handler`. */
  handler: string;
  /** The function's timeout (function `timeout`, else `provider.timeout`, else 6 s), in ms. */
  timeoutMs: number;
  /** The function's memory (function `memorySize`, else `provider.memorySize`, else 1024), in MB. */
  memorySizeMb: number;
  /** Environment for the handler: `provider.environment` merged with the function's `environment`. */
  environment: Record<string, string>;
  topic: string;
  /**
   * Brokers in `host:port` form: the trigger's `bootstrapServers`, else `custom.sluice.bootstrapServers`,
   * else `KAFKA_BROKERS`; `undefined` means "the local broker that `npm start` runs".
   */
  bootstrapServers: string[] | undefined;
  /** Records per invocation at most (1–10000, default 100). */
  batchSize: number;
  /**
   * Invocations of one partition at once (1–10, default 1). Above 1, records of one key are never
   * in two running invocations and run in offset order; records without a key share one key
   * (framework/parallel/, docs/how-it-works.md); `ordering: unordered` keeps no order.
   */
  parallelizationFactor: number;
  /**
   * What parallelizationFactor > 1 keeps in order: `key` (undefined: the default, also for a
   * configuration packaged before the setting existed) or `unordered`, every record its own key.
   */
  ordering?: 'unordered';
  /**
   * `queue`: the trigger's pollers are members of a share group (KIP-932, framework/queue/): records
   * are acquired, then accepted, released or rejected one by one. Undefined: stream, a consumer group.
   */
  consumptionMode?: 'queue';
  /** The Kafka client the member runs on (framework/config/engine.ts): kafkajs (default) or librdkafka. */
  engine: 'kafkajs' | 'librdkafka';
  /** The group protocol it joins with: classic, or consumer (KIP-848, librdkafka only). */
  groupProtocol: 'classic' | 'consumer';
  /** Static membership (KIP-345, librdkafka only): the member's group.instance.id. */
  groupInstanceId?: string;
  /** How long to gather records before invoking, in ms (`maximumBatchingWindow` seconds × 1000; default 500 ms as AWS for Kafka). */
  maximumBatchingWindowMs: number;
  startingPosition: StartingPosition;
  /** Epoch ms; set only with AT_TIMESTAMP (`startingPositionTimestamp` is given in seconds, as AWS). */
  startingPositionTimestampMs?: number;
  /** Default `sluice-<service>-<functionName>`: stable across restarts, unlike a random id. */
  consumerGroupId: string;
  enabled: boolean;
  /**
   * How long the member may stay away from the group protocol, in ms: sent as the rebalance
   * timeout in JoinGroup (Java's max.poll.interval.ms). The function's timeout plus a safety
   * margin fits in it (framework/chunking/budget.ts). Event, else `custom.sluice`, else 300000.
   */
  maxPollIntervalMs: number;
  /**
   * How long the group waits for a heartbeat before removing the member, in ms; at most
   * `maxPollIntervalMs`. The broker's group.min/max.session.timeout.ms are checked at start,
   * not here. Event, else `custom.sluice`, else 30000.
   */
  sessionTimeoutMs: number;
  /** How often the member heartbeats, in ms; below a third of `sessionTimeoutMs`. Event, else `custom.sluice`, else 3000. */
  heartbeatIntervalMs: number;
  /** Partitions of this trigger one poller processes at the same time (1–100). Event, else `custom.sluice`, else 4. */
  concurrency: number;
  /**
   * Restarts in a row of a consumer that stopped (each a new member, with backoff) before the
   * poller gives up and exits non-zero naming the trigger. Event, else `custom.sluice`, else 8.
   */
  maxConsumerRestarts: number;
  /** Retries, bisection, partial batch responses, record age and the on-failure destination (framework/config/failure.ts). */
  failure: FailurePolicy;
  /** AWS event-filtering patterns (parsed JSON objects); empty means every record is invoked. */
  filterPatterns: Array<Record<string, unknown>>;
  /** Authentication and TLS for every client of the trigger; undefined: plaintext, unauthenticated. */
  access?: KafkaAccess;
  /**
   * The MSK cluster ARN, from a trigger's `arn` or an emulated native `msk` event: the event then
   * says `aws:kafka` and carries it as `eventSourceArn`, as AWS sends it.
   */
  eventSourceArn?: string;
  /** `schemaRegistryConfig`: decode keys and values with a schema registry before filtering (framework/schema/). */
  schemaRegistry?: SchemaRegistrySpec;
  /** Where the trigger was declared, for messages: `functions.orders.events[0].sluice`. */
  path: string;
  /**
   * Set for a native `kafka` or `msk` event polled locally (`custom.sluice.emulateNativeEvents`):
   * in AWS its event source mapping polls it, so the deployed poller service leaves it out.
   */
  emulates?: 'kafka' | 'msk';
}

/** `schemaRegistryConfig`, resolved (framework/config/schema-registry.ts). */
export interface SchemaRegistrySpec {
  /** As written: a Confluent-compatible registry's URL or a Glue registry ARN. */
  uri: string;
  /** Set when `uri` is a Glue registry ARN. */
  glue?: { partition: string; region: string; accountId: string; registryName: string };
  format: 'JSON' | 'SOURCE';
  /** Decode the key / the value (`schemaValidationConfigs`). */
  key: boolean;
  value: boolean;
  /** `accessConfigs`: Secrets Manager ARNs, for a registry URL only. */
  access: { basicAuthSecretArn?: string; clientCertificateSecretArn?: string; rootCaSecretArn?: string };
}

/** The service as Sluice sees it. */
export interface ServiceSpec {
  service: string;
  stage: string;
  region: string;
  /** Directory holding serverless.yml; handler paths are relative to it. */
  rootDir: string;
  triggers: TriggerSpec[];
  /** `custom.sluice.http`: the health server's port, when set. */
  http?: { port: number };
  /** `custom.sluice.metrics`, as written (defaults: observe/emf.ts EMF_DEFAULTS). */
  metrics?: { namespace?: string; periodSeconds?: number };
}
