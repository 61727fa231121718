/**
 * The only module family that imports kafkajs. Nothing it exports carries a kafkajs type
 * into the poller, the chunker or the handler API.
 */
import { Kafka, logLevel as KafkaLogLevel, type LogEntry } from 'kafkajs';
import type { Logger } from '../observe/logger.ts';

export interface ClientOptions {
  brokers: string[];
  clientId?: string;
  logger: Logger;
  /** Attempts to reach the cluster before giving up (bounded: never retry forever). */
  retries?: number;
  connectionTimeoutMs?: number;
}

export function createKafkaClient(options: ClientOptions): Kafka {
  const log = options.logger.child('kafkajs');
  return new Kafka({
    clientId: options.clientId ?? 'sluice',
    brokers: options.brokers,
    connectionTimeout: options.connectionTimeoutMs ?? 3000,
    retry: { retries: options.retries ?? 5, initialRetryTime: 300, maxRetryTime: 5000 },
    logLevel: log.level === 'debug' ? KafkaLogLevel.DEBUG : KafkaLogLevel.WARN,
    logCreator: () => (entry: LogEntry) => {
      const { message, ...fields } = entry.log;
      const at = entry.level <= KafkaLogLevel.ERROR ? 'error' : entry.level === KafkaLogLevel.WARN ? 'warn' : 'debug';
      // kafkajs logs every retried attempt and every error response as an error; what is fatal
      // reaches the caller as a thrown error, so these are debug detail.
      const demoted = at === 'error' && (entry.namespace === 'Connection' || /Connection error|Failed to connect|Crash: KafkaJSNumberOfRetriesExceeded/.test(message));
      log[demoted ? 'debug' : at](message, { ...fields, ns: entry.namespace });
    },
  });
}

/** kafkajs error names that mean "the broker could not be reached at all". */
export function isConnectionFailure(e: unknown): boolean {
  const name = e instanceof Error ? e.name : '';
  return ['KafkaJSConnectionError', 'KafkaJSNumberOfRetriesExceeded', 'KafkaJSNonRetriableError', 'KafkaJSBrokerNotFound', 'KafkaJSRequestTimeoutError'].includes(name);
}

export function describeCause(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = (e as Error & { cause?: unknown; originalError?: unknown }).originalError ?? e.cause;
  return cause instanceof Error && cause.message !== e.message ? `${e.message}: ${describeCause(cause)}` : e.message;
}
