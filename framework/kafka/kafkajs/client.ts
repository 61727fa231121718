/**
 * The only module family that imports kafkajs. Nothing it exports carries a kafkajs type
 * into the poller, the chunker or the handler API.
 */
import { Kafka, logLevel as KafkaLogLevel, type LogEntry, type SASLOptions } from 'kafkajs';
import type { Logger } from '../../observe/logger.ts';
// Registers snappy, lz4 and zstd with kafkajs: every client Sluice creates reads every codec.
import '../codecs/index.ts';
import { assertKafkajsPatched } from './kafkajs-patch.ts';
import { oauthBearerMechanism } from './oauth-bearer.ts';
import { describeSecurity, redactor, secretValues, type MskIamAuth, type SaslCredentials, type TlsSettings } from '../security.ts';

export interface ClientOptions {
  brokers: string[];
  clientId?: string;
  logger: Logger;
  /** Attempts to reach the cluster before giving up (bounded: never retry forever). */
  retries?: number;
  connectionTimeoutMs?: number;
  /** SASL credentials (security.ts resolves them from the trigger's accessConfigurations). */
  sasl?: SaslCredentials;
  /** MSK IAM: SASL/OAUTHBEARER with the source's tokens (instead of `sasl`). */
  iam?: MskIamAuth;
  /** Connect with TLS; `{}` for the system's CAs and no client certificate. */
  ssl?: TlsSettings;
}

export function createKafkaClient(options: ClientOptions): Kafka {
  assertKafkajsPatched();
  const log = options.logger.child('kafkajs');
  const { sasl, iam, ssl } = options;
  const security = { ...(sasl ? { sasl } : {}), ...(iam ? { iam } : {}), ...(ssl ? { ssl } : {}) };
  // kafkajs does not log credentials or tokens; this keeps it so should one of its messages ever quote them.
  const redactSecrets = redactor(secretValues(security));
  const redact = iam ? <T>(value: T): T => redactor(iam.tokens.issued())(redactSecrets(value)) : redactSecrets;
  if (sasl || iam || ssl) log.debug('connecting with', { brokers: options.brokers, security: describeSecurity(security) });
  return new Kafka({
    clientId: options.clientId ?? 'sluice',
    brokers: options.brokers,
    ...(iam ? { sasl: oauthBearerMechanism(() => iam.tokens.token()) } : sasl ? { sasl: kafkajsSasl(sasl) } : {}),
    ...(ssl ? { ssl: { ...ssl } } : {}),
    connectionTimeout: options.connectionTimeoutMs ?? 3000,
    retry: { retries: options.retries ?? 5, initialRetryTime: 300, maxRetryTime: 5000 },
    logLevel: log.level === 'debug' ? KafkaLogLevel.DEBUG : KafkaLogLevel.WARN,
    logCreator: () => (entry: LogEntry) => {
      const { message, ...fields } = redact(entry.log);
      const at = entry.level <= KafkaLogLevel.ERROR ? 'error' : entry.level === KafkaLogLevel.WARN ? 'warn' : 'debug';
      // kafkajs logs every retried attempt and every error response as an error; what is fatal
      // reaches the caller as a thrown error, so these are debug detail.
      // A consumer's crash reaches the supervisor, which says it once, in its words.
      const demoted =
        (at === 'error' && (entry.namespace === 'Connection' || /Connection error|Failed to connect|^Crash: /.test(message))) ||
        // producer.ts bounds the idempotent producer's retries on purpose and replaces it after a failure.
        (at === 'warn' && /Limiting retries for the idempotent producer/.test(message));
      log[demoted ? 'debug' : at](message, { ...fields, ns: entry.namespace });
    },
  });
}

function kafkajsSasl({ mechanism, username, password }: SaslCredentials): SASLOptions {
  switch (mechanism) {
    case 'plain':
      return { mechanism, username, password };
    case 'scram-sha-256':
      return { mechanism, username, password };
    case 'scram-sha-512':
      return { mechanism, username, password };
  }
}

/** The broker refused the SASL handshake (wrong username or password, or a mechanism it does not enable). */
export function isAuthenticationFailure(e: unknown): boolean {
  return e instanceof Error && e.name === 'KafkaJSSASLAuthenticationError';
}

/** kafkajs's error, or one it wrapped (its retrier's `originalError`, a `cause`), is of one of these protocol error types. */
export function hasKafkaErrorType(e: unknown, types: ReadonlySet<string>): boolean {
  for (let c = e as { type?: string; cause?: unknown; originalError?: unknown } | undefined, depth = 0; c && depth < 5; depth++) {
    if (c.type && types.has(c.type)) return true;
    c = (c.cause ?? c.originalError) as typeof c;
  }
  return false;
}

/** An error's message with the messages of what caused it, for one readable line. */
export function describeCause(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = (e as Error & { cause?: unknown; originalError?: unknown }).originalError ?? e.cause;
  return cause instanceof Error && cause.message !== e.message ? `${e.message}: ${describeCause(cause)}` : e.message;
}
