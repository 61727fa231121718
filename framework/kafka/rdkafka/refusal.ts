/**
 * Brokers that refuse the member's credentials or certificates, read from librdkafka's log. librdkafka
 * retries authentication and TLS handshakes forever, and the binding holds its error events until
 * connect() ends (its metadata wait, 30 s): the log line comes at once, so the member's start()
 * fails on it, with the one line kafkajs's start gives (admin.ts credentialsRefused, msk-iam-errors.ts)
 * naming the trigger and what to check. Pure; the line is redacted by the caller.
 */
import { ConfigError } from '../../errors.ts';
import type { KafkaSecurity } from '../security.ts';

/** One `event.log` of the binding: syslog severity, librdkafka's facility and message. */
export interface RdkafkaLogLine {
  severity: number;
  fac: string;
  message: string;
}

export interface Refusal {
  kind: 'sasl' | 'tls';
  /** What librdkafka said, without its thread and broker prefix and its `(after … in state …)` suffix. */
  said: string;
}

/** librdkafka's log severities at or below this are errors and warnings (syslog's 4). */
const WARNING = 4;
const SASL = /SASL (authentication error|authentication failed|handshake failed)/;
const TLS = /SSL handshake failed|certificate verify failed|SSL.*alert/;

export function refusalIn(line: RdkafkaLogLine): Refusal | undefined {
  if (line.severity > WARNING) return undefined;
  const kind = SASL.test(line.message) ? 'sasl' : TLS.test(line.message) ? 'tls' : undefined;
  if (kind === undefined) return undefined;
  const said = line.message
    .replace(/^\[thrd:[^\]]*\]: /, '')
    .replace(/^[a-z_]+:\/\/[^ ]+: /, '')
    .replace(/ \(after \d+ms in state .*\)$/, '');
  return { kind, said };
}

/** The start's error: the trigger, the brokers, what they said, and what to check for this security. */
export function refusedAtStart(path: string, brokers: readonly string[], security: KafkaSecurity, refusal: Refusal): ConfigError {
  const at = `${path}: Kafka at ${brokers.join(',')}`;
  if (refusal.kind === 'tls') {
    const client = security.ssl?.cert ? ", and that the brokers trust clientCertificateTlsAuth's certificate" : '';
    return new ConfigError(
      `${at}: the TLS handshake failed (${refusal.said}). ` +
        `Check that serverRootCaCertificate holds the CA the brokers' certificates chain to (without it, the system's CAs are used)${client}, ` +
        'and that bootstrapServers name the brokers by a name or address their certificates carry.',
    );
  }
  if (security.iam) {
    return new ConfigError(
      `${at} refused the MSK IAM token (${refusal.said}). ` +
        'Check that the AWS credentials\' role is allowed kafka-cluster:Connect on the cluster, that the cluster has IAM access control on, ' +
        'and that bootstrapServers are its IAM brokers (port 9098; 9198 for public access).',
    );
  }
  return new ConfigError(
    `${at} refused the credentials (${refusal.said}). ` +
      'Check the username and password in the secret that accessConfigurations names (locally: its SLUICE_SECRET_<NAME> variable), ' +
      'and that the user exists on the cluster for that SASL mechanism.',
  );
}
