/**
 * A trigger's resolved security (../security.ts) -> librdkafka's global configuration, the same
 * connection the kafkajs engine makes (../client.ts): SASL PLAIN/SCRAM with the secret's
 * credentials, TLS with the secret's CA (or the system's) and client certificate, and MSK IAM as
 * SASL/OAUTHBEARER whose token librdkafka asks for through the binding's
 * `oauthbearer_token_refresh_cb`. Pure but for that callback, which only calls the token source.
 */
import type { SaslMechanism } from '../../config/types.ts';
import type { MskTokenSource } from '../msk-iam.ts';
import type { KafkaSecurity, TlsSettings } from '../security.ts';

/** What the refresh callback answers, as the binding hands it to rd_kafka_oauthbearer_set_token. */
export interface OAuthBearerToken {
  tokenValue: string;
  /** When the token expires, in ms since the epoch (librdkafka's md_lifetime_ms; not a duration). */
  lifetime: number;
  /** Only librdkafka's log lines show it: the broker takes the principal from the token. */
  principal: string;
}

/** The binding calls it with the `sasl.oauthbearer.config` string; an async function's result is the token. */
export type TokenRefresh = (oauthbearerConfig: string) => Promise<OAuthBearerToken>;

export type RdkafkaSecurityConfig = Record<string, string | TokenRefresh>;

const MECHANISM: Record<SaslMechanism, string> = { plain: 'PLAIN', 'scram-sha-256': 'SCRAM-SHA-256', 'scram-sha-512': 'SCRAM-SHA-512' };

/**
 * How long a token is said to live when its source does not say (a test's source): librdkafka asks
 * again at 80 % of it, and the source hands out the same token until it is near its end.
 */
export const UNKNOWN_TOKEN_LIFE_MS = 60_000;

/** The principal librdkafka logs for MSK IAM (the broker takes the role from the signed token). */
export const IAM_PRINCIPAL = 'msk-iam';

export function rdkafkaSecurityConfig(security: KafkaSecurity): RdkafkaSecurityConfig {
  const sasl = security.iam !== undefined || security.sasl !== undefined;
  const config: RdkafkaSecurityConfig = { 'security.protocol': `${sasl ? 'sasl_' : ''}${security.ssl ? 'ssl' : 'plaintext'}` };
  if (security.iam) {
    config['sasl.mechanisms'] = 'OAUTHBEARER';
    config.oauthbearer_token_refresh_cb = iamTokenRefresh(security.iam.tokens);
  } else if (security.sasl) {
    config['sasl.mechanisms'] = MECHANISM[security.sasl.mechanism];
    config['sasl.username'] = security.sasl.username;
    config['sasl.password'] = security.sasl.password;
  }
  if (security.ssl) Object.assign(config, tlsConfig(security.ssl));
  return config;
}

/**
 * Without a CA, the system's: librdkafka probes the well-known bundle paths (Debian's, Amazon
 * Linux's, …). Its default would be OpenSSL's own paths, and inside Node those are Node's OpenSSL
 * build's (the addon's OpenSSL calls resolve to the one Node carries), not the system's.
 */
function tlsConfig(ssl: TlsSettings): Record<string, string> {
  return {
    ...(ssl.ca?.length ? { 'ssl.ca.pem': ssl.ca.join('\n') } : { 'ssl.ca.location': 'probe' }),
    ...(ssl.cert !== undefined ? { 'ssl.certificate.pem': ssl.cert } : {}),
    ...(ssl.key !== undefined ? { 'ssl.key.pem': ssl.key } : {}),
    ...(ssl.passphrase !== undefined ? { 'ssl.key.password': ssl.passphrase } : {}),
  };
}

/** The token source's current token, with its expiry when the source knows it. */
export function iamTokenRefresh(tokens: MskTokenSource, now: () => number = Date.now): TokenRefresh {
  return async () => {
    const tokenValue = await tokens.token();
    const known = tokens.expiresAt?.(tokenValue);
    return { tokenValue, lifetime: known ?? now() + UNKNOWN_TOKEN_LIFE_MS, principal: IAM_PRINCIPAL };
  };
}
