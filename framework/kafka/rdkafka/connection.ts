/**
 * How the librdkafka member connects and what its client says: the trigger's security as
 * librdkafka configuration (security.ts), librdkafka's log at Sluice's debug level with every
 * secret and token cut out (as client.ts does for kafkajs), and the brokers' refusals that end a
 * start (refusal.ts). Nothing here logs a password, a key, a passphrase or a token.
 */
import type { EventEmitter } from 'node:events';
import { ConfigError } from '../../errors.ts';
import type { Logger } from '../../observe/logger.ts';
import { describeSecurity, redactor, secretValues, type KafkaSecurity } from '../security.ts';
import { fatalIn } from './fatal.ts';
import { refusalIn, refusedAtStart, type RdkafkaLogLine } from './refusal.ts';
import { rdkafkaSecurityConfig } from './security.ts';

/** How long a client's connect() waits for the cluster's metadata; a failed start's disconnect waits for it too. */
export const CONNECT_WITHIN_MS = 30_000;

/** librdkafka's debug contexts at Sluice's debug level: connections and authentication (neither logs a secret). */
const DEBUG_CONTEXTS = 'broker,security';

export interface ConnectionOptions {
  /** The trigger's path, named by the start's errors. */
  askedBy: string;
  brokers: string[];
  groupId: string;
  /** Plaintext and unauthenticated without. */
  security?: KafkaSecurity;
  logger: Logger;
}

export interface Connection {
  /** librdkafka's global configuration for the security (and its debug contexts at debug level). */
  config: Record<string, unknown>;
  redact<T>(value: T): T;
  /**
   * Forwards the client's log; while `starting()` gives a function, a refusal of the brokers (or
   * a token the source could not give) is handed to it as the start's error.
   */
  watch(client: EventEmitter, starting: () => ((error: Error) => void) | undefined): void;
  /** What librdkafka's last fatal error said (fatal.ts): its polls answer only `Local: Fatal error`. */
  fatal(): string | undefined;
}

export function rdkafkaConnection(o: ConnectionOptions): Connection {
  const security = o.security ?? {};
  const redactSecrets = redactor(secretValues(security));
  const tokens = security.iam?.tokens;
  // Tokens are read when a line comes: the source hands out new ones as they expire.
  const redact = tokens ? <T>(value: T): T => redactor(tokens.issued())(redactSecrets(value)) : redactSecrets;
  const log = o.logger.child('librdkafka');
  let fatal: string | undefined;
  if (security.sasl || security.iam || security.ssl) log.debug('connecting with', { brokers: o.brokers, security: describeSecurity(security) });
  return {
    config: { ...rdkafkaSecurityConfig(security), ...(log.level === 'debug' ? { debug: DEBUG_CONTEXTS } : {}) },
    redact,
    fatal: () => fatal,
    watch(client, starting) {
      client.on('event.log', (line: RdkafkaLogLine) => {
        const said = redact(line.message);
        log.debug(said, { groupId: o.groupId, severity: line.severity, fac: line.fac });
        fatal = fatalIn({ ...line, message: said }) ?? fatal;
        const refused = starting();
        const refusal = refused && refusalIn({ ...line, message: said });
        if (refusal) refused!(refusedAtStart(o.askedBy, o.brokers, security, refusal));
      });
      // The binding emits a failed OAUTHBEARER token refresh as 'error' (lib/client.js): an EventEmitter throws one nobody hears.
      client.on('error', (e: Error) => {
        const message = redact(e.message);
        const refused = starting();
        if (refused) refused(new ConfigError(`${o.askedBy}: no token for SASL/OAUTHBEARER (${message})`, { cause: e }));
        else log.warn('librdkafka could not refresh the OAUTHBEARER token; it asks again', { groupId: o.groupId, error: message });
      });
    },
  };
}
