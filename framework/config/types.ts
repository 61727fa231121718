/** Resolved, validated configuration: what the poller and invokers consume. */

export type StartingPosition = 'LATEST' | 'TRIM_HORIZON' | 'AT_TIMESTAMP';

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
  /** How long to gather records before invoking, in ms (`maximumBatchingWindow` seconds × 1000; default 500 ms as AWS for Kafka). */
  maximumBatchingWindowMs: number;
  startingPosition: StartingPosition;
  /** Epoch ms; set only with AT_TIMESTAMP (`startingPositionTimestamp` is given in seconds, as AWS). */
  startingPositionTimestampMs?: number;
  /** Default `sluice-<service>-<functionName>`: stable across restarts, unlike a random id. */
  consumerGroupId: string;
  enabled: boolean;
  /** Where the trigger was declared, for messages: `functions.orders.events[0].sluice`. */
  path: string;
}

/** The service as Sluice sees it. */
export interface ServiceSpec {
  service: string;
  stage: string;
  region: string;
  /** Directory holding serverless.yml; handler paths are relative to it. */
  rootDir: string;
  triggers: TriggerSpec[];
}
