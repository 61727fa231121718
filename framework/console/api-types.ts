/**
 * The console's HTTP API, shared by the poller's server (framework/console/) and the page
 * (framework/console/ui/), so the two cannot drift. Every string here that comes from a record
 * or a handler (keys, values, headers, errors, log lines) is untrusted: the page renders it as
 * text, never as HTML.
 *
 * GET  /api/overview                → Overview
 * GET  /api/invocations?function=&partition=&outcome=&key=&limit=  → { invocations: InvocationSummary[] }
 * GET  /api/invocations/<id>         → InvocationDetail (404 once it left the history)
 * GET  /api/failures                 → { destinations: FailureDestination[] }
 * GET  /api/live                     → server-sent events: `overview` (Overview, once a second)
 *                                      and `invocations` (InvocationSummary[], the ones that started or
 *                                      ended since the last, four times a second (once a second past 50), at most 200)
 *                                      and `resync` (no data) after a message that could not say every
 *                                      change: more than 200, or one running pushed out of its ring;
 *                                      the page fetches the list again, and its running rows by id
 * POST /api/replay    ReplayRequest  → InvocationDetail (replay: true; nothing is committed)
 * POST /api/produce   ProduceRequest → ProduceResult
 * POST /api/redrive   RedriveRequest → RedriveResult
 * A POST needs the header `x-sluice-token` (the page's `<meta name="sluice-token">`) and
 * `content-type: application/json`; a read-only console answers 403. Errors: `{ error: string }`.
 */

/** `read-write`: replay, produce and redrive allowed (the local default); `read-only`: looking only. */
export type ConsoleMode = 'read-write' | 'read-only';

export interface Overview {
  service: string;
  stage: string;
  mode: ConsoleMode;
  /** Epoch ms, the server's clock: elapsed times on the page are computed against it. */
  now: number;
  startedAt: number;
  /** How many invocations each trigger's history keeps (the ring buffer's size). */
  historySize: number;
  /**
   * Per function, the successful invocations not listed: past `eventsPerSecond` of them in a second
   * while no page was open, past `listedPerSecond` while one was (every one that failed is listed;
   * the totals count them all).
   */
  unlisted: Record<string, number>;
  /** The invocations a second of a function listed while no page is open (and whose events are kept). */
  eventsPerSecond: number;
  /** The invocations a second of a function listed while a page is open. */
  listedPerSecond: number;
  triggers: TriggerView[];
  /** Group membership changes, newest first (at most 200). */
  timeline: TimelineEntry[];
  /** Topics a record can be sent to from the page: every trigger's topic and kafka:// destination. */
  topics: string[];
}

/**
 * What a trigger is doing, as /healthz tells it apart: `running` (joined, partitions moving),
 * `held` (a partition waits on a retry, the destination or the schema registry, by policy),
 * `stalled` (a partition made no progress past its limit), and the group states.
 */
export type TriggerStatus = 'starting' | 'running' | 'rebalancing' | 'restarting' | 'held' | 'stalled' | 'failed';

export interface TriggerView {
  function: string;
  topic: string;
  group: string;
  engine: 'kafkajs' | 'librdkafka';
  /** `queue`: a share group's member (docs/queue-mode.md); its partitions show the group's backlog and what this poller acquired and acknowledged. */
  consumptionMode: 'stream' | 'queue';
  status: TriggerStatus;
  /** Why, when the status is not `running` (the reasons /healthz gives). */
  reason?: string;
  /** The function's timeout and the group's poll interval: what every chunk is cut to fit. */
  timeoutMs: number;
  maxPollIntervalMs: number;
  batchSize: number;
  parallelizationFactor: number;
  /** The on-failure destination's URI, if any. */
  destination?: string;
  memberId?: string;
  restarts: number;
  partitions: PartitionView[];
  /** Records and invocations per 5-second bucket, oldest first, the last 10 minutes. */
  throughput: ThroughputSample[];
  totals: { invocations: number; records: number; failed: number };
}

export interface PartitionView {
  partition: number;
  /** `caught-up`, `progressing`, `held` (with `held` saying why) or `stuck` (observe/progress.ts). */
  state: 'caught-up' | 'progressing' | 'held' | 'stuck';
  held?: 'retrying' | 'not-invoked' | 'destination' | 'registry';
  reason?: string;
  /** The next offset to process, as last committed by this member. */
  committed?: number;
  /** The log end (high watermark) at the last fetch. */
  logEnd?: number;
  lag: number;
  /** Lag at each 5-second bucket, oldest first, the last 10 minutes, ending with the lag now (for a sparkline). */
  lagHistory: number[];
  /** Chunks running now (more than one with parallelizationFactor > 1). */
  inFlight: ChunkInFlight[];
  /**
   * Queue mode: what this poller acquired of the partition since it started (`redelivered` of them at
   * a delivery count above 1) and how it acknowledged them. `lag` is then the share group's backlog
   * as the broker counts it (in-flight records included), read every 5 s; no committed offset or log end.
   */
  queue?: { acquired: number; redelivered: number; accepted: number; released: number; rejected: number };
}

export interface ChunkInFlight {
  firstOffset: number;
  lastOffset: number;
  count: number;
  bytes: number;
  attempt: number;
  /** Epoch ms. */
  startedAt: number;
  /** When the function's timeout ends the invocation: startedAt + timeoutMs. */
  timeoutAt: number;
  /**
   * The deadline the chunk was cut for: the batch was fetched at `fetchedAt`, and every chunk of
   * it must end before fetchedAt + maxPollIntervalMs (less a safety margin), or the member would
   * leave the group. Chunks are cut so that each one's timeout fits before it.
   */
  fetchedAt: number;
  pollDeadlineAt: number;
}

export interface ThroughputSample {
  /** Bucket start, epoch ms. */
  t: number;
  records: number;
  invocations: number;
  failed: number;
}

export interface TimelineEntry {
  t: number;
  function: string;
  group: string;
  kind: 'joined' | 'rebalancing' | 'rebalanced' | 'revoked' | 'stopped' | 'restarted' | 'failed';
  /** One line, as the terminal view says it. */
  text: string;
}

export type Outcome = 'running' | 'ok' | 'partial' | 'failed';

export interface InvocationSummary {
  /** Unique in this process; the detail's URL. */
  id: string;
  function: string;
  topic: string;
  partition: number;
  firstOffset: number;
  lastOffset: number;
  count: number;
  attempt: number;
  startedAt: number;
  durationMs?: number;
  outcome: Outcome;
  /** The handler's context.awsRequestId. */
  requestId?: string;
  /** `partial`: the first offset the handler reported failed (ReportBatchItemFailures). */
  reportedFailedFrom?: number;
  /** One line. */
  error?: string;
  /** The records' keys, decoded as UTF-8 (printable), the first 5. */
  keys: string[];
  /** Run from the console (or a replayed event): committed nothing. */
  replay?: boolean;
}

export interface LogLine {
  t: number;
  level: 'log' | 'info' | 'warn' | 'error' | 'debug';
  text: string;
}

export interface InvocationDetail extends InvocationSummary {
  /**
   * The exact event the handler received (AWS's Kafka event JSON), or null once the history's
   * byte budget dropped it (the summary stays; `eventDropped` says so).
   */
  event: unknown;
  eventDropped?: string;
  /** Set once the history's budget for what handlers said dropped this one's lines and answer. */
  detailDropped?: string;
  /** The handler's own output during this invocation (at most 500 lines, each at most 8 KiB). */
  logs: LogLine[];
  logsTruncated?: boolean;
  /** What the handler returned (JSON), when it succeeded. */
  response?: unknown;
  errorDetail?: { kind: string; name: string; message: string; stack?: string };
}

export interface ReplayRequest {
  function: string;
  /** An AWS Kafka event (as in the invocation's detail, edited or not). */
  event: unknown;
}

export interface ProduceRequest {
  topic: string;
  key?: string | null;
  /** null: a tombstone. */
  value: string | null;
  headers?: Record<string, string>;
  partition?: number;
}

export interface ProduceResult {
  topic: string;
  sent: number;
}

export interface FailureDestination {
  function: string;
  /** The trigger's source topic (a function may have triggers on several topics, each its own destination). */
  topic: string;
  /** The destination's URI as configured (kafka://topic, an SQS or SNS ARN, s3://…). */
  destination: string;
  /** Only kafka:// destinations can be read back (and redriven) from here. */
  readable: boolean;
  /** Why not, when it cannot be. */
  note?: string;
  /** The records in the destination topic, newest first (at most 200). */
  records: FailedRecordView[];
  /** Records this process sent there, newest first (any destination kind, at most 200). */
  sent: Array<{ t: number; topic: string; partition: number; offsets: number[]; reason: string; attempts: number }>;
}

export interface FailedRecordView {
  partition: number;
  offset: number;
  timestamp: string;
  /** From the sluice-failure-* headers; absent on a record Sluice did not write. */
  reason?: string;
  attempts?: number;
  source?: { topic: string; partition: number; offset: number };
  key: string | null;
  /** The original value as UTF-8 (at most 4 KiB, `valueTruncated` says when cut). */
  value: string | null;
  valueTruncated?: boolean;
  headers: Record<string, string>;
  /**
   * A reduced copy: the record did not fit the destination, so the copy holds only Sluice's headers
   * (this says why and where to read the record while retention keeps it). It cannot be redriven.
   */
  reduced?: string;
}

export interface RedriveRequest {
  function: string;
  /** Which of the function's triggers, by its source topic (default: its only one, else its first). */
  topic?: string;
  /** Only these (default: every record Sluice wrote there). */
  partition?: number;
  fromOffset?: number;
  toOffset?: number;
  reason?: string;
}

export interface RedriveResult {
  topic: string;
  read: number;
  selected: number;
  sent: number;
  to: Record<string, number>;
  /** One line, as `sluice redrive` prints it. */
  summary: string;
}
