/**
 * A trigger's `access` (secret ARNs, framework/config/access.ts) -> the SASL and TLS settings
 * its Kafka clients connect with. Secrets are read through a SecretSource (secrets.ts) and
 * checked against the JSON Secrets Manager holds for Lambda's Kafka event sources. Nothing
 * here logs, and no message carries a secret value: only ARNs, property names and shapes.
 */
import { mskRegion } from '../config/msk.ts';
import type { KafkaAccess, SaslMechanism } from '../config/types.ts';
import { ConfigError } from '../errors.ts';
import { mskIamTokens, type MskTokenSource } from './msk-iam.ts';
import { defaultSecretSource, readSecretJson, SECRET_SHAPES, type SecretSource } from './secrets.ts';

export { defaultSecretSource, envSecrets, secretsManagerSecrets, type SecretSource } from './secrets.ts';

export interface SaslCredentials {
  mechanism: SaslMechanism;
  username: string;
  password: string;
}

/** TLS for the connection; an empty object means TLS with the system's CAs and no client certificate. */
export interface TlsSettings {
  /** PEM CA certificates the brokers' certificates must chain to (instead of the system's). */
  ca?: string[];
  /** PEM client certificate (chain) and its private key, for mutual TLS. */
  cert?: string;
  key?: string;
  passphrase?: string;
}

/** MSK IAM: SASL/OAUTHBEARER with tokens signed for `region` (msk-iam.ts). */
export interface MskIamAuth {
  region: string;
  tokens: MskTokenSource;
}

/** What createKafkaClient connects with: plaintext and unauthenticated when all are unset. */
export interface KafkaSecurity {
  sasl?: SaslCredentials;
  iam?: MskIamAuth;
  ssl?: TlsSettings;
}

/** How MSK IAM gets its region and tokens; tests inject a token source. */
export interface IamOptions {
  /** For AWS_REGION; default process.env. */
  env?: Record<string, string | undefined>;
  /** Default: mskIamTokens with the SDK's default credential chain. */
  tokens?: (o: { region: string; path: string }) => MskTokenSource;
}


const SASL_PROPERTY: Record<SaslMechanism, string> = {
  plain: 'saslPlainAuth',
  'scram-sha-256': 'saslScram256Auth',
  'scram-sha-512': 'saslScram512Auth',
};

/**
 * Reads the secrets `access` names and returns the settings to connect with. `path` is where
 * the trigger is declared; every error is a ConfigError naming the property and the ARN.
 */
export async function resolveSecurity(
  access: KafkaAccess | undefined,
  secrets: SecretSource,
  path: string,
  brokers: readonly string[] = [],
  iam: IamOptions = {},
): Promise<KafkaSecurity> {
  if (!access) return {};
  const at = (property: string) => `${path}.accessConfigurations.${property}`;
  const security: KafkaSecurity = {};
  if (access.iam) security.iam = await resolveIam(access.iam.clusterArn, brokers, path, iam);
  if (access.sasl) {
    const where = at(SASL_PROPERTY[access.sasl.mechanism]);
    const fields = await readSecretJson(secrets, access.sasl.secretArn, SECRET_SHAPES.sasl, where, ['username', 'password'], []);
    security.sasl = { mechanism: access.sasl.mechanism, username: fields.username!, password: fields.password! };
  }
  if (access.tls) {
    const ssl: TlsSettings = {};
    if (access.rootCaSecretArn) {
      const fields = await readSecretJson(secrets, access.rootCaSecretArn, SECRET_SHAPES.rootCa, at('serverRootCaCertificate'), ['certificate'], []);
      ssl.ca = [fields.certificate!];
    }
    if (access.clientCertificateSecretArn) {
      const where = at('clientCertificateTlsAuth');
      const fields = await readSecretJson(secrets, access.clientCertificateSecretArn, SECRET_SHAPES.clientCertificate, where, ['certificate', 'privateKey'], ['privateKeyPassword']);
      ssl.cert = fields.certificate!;
      ssl.key = fields.privateKey!;
      if (fields.privateKeyPassword !== undefined) ssl.passphrase = fields.privateKeyPassword;
    }
    security.ssl = ssl;
  }
  return security;
}

/**
 * Every trigger's settings, by trigger. The secrets come from `secrets`, by default from
 * defaultSecretSource(), which is only consulted when a trigger has `access`.
 */
export async function resolveTriggerSecurity<T extends { access?: KafkaAccess; path: string; bootstrapServers?: string[] | undefined }>(
  triggers: readonly T[],
  secrets?: SecretSource,
  iam?: IamOptions,
): Promise<Map<T, KafkaSecurity>> {
  const out = new Map<T, KafkaSecurity>();
  for (const t of triggers) {
    out.set(t, t.access ? await resolveSecurity(t.access, (secrets ??= lazySecrets()), t.path, t.bootstrapServers ?? [], iam) : {});
  }
  return out;
}

/** defaultSecretSource() on first read: a trigger that reads no secret never needs SLUICE_SECRETS to be valid. */
export function lazySecrets(): SecretSource {
  let source: SecretSource | undefined;
  return { read: (arn, shape) => (source ??= defaultSecretSource()).read(arn, shape) };
}

/**
 * The region (the cluster ARN's, an MSK broker host's, else AWS_REGION) and a token source; the
 * first token is signed here, so missing or expired credentials fail the start, naming the trigger.
 */
async function resolveIam(clusterArn: string | undefined, brokers: readonly string[], path: string, o: IamOptions): Promise<MskIamAuth> {
  const region = mskRegion({ clusterArn, brokers, env: o.env ?? process.env });
  if (region === undefined) {
    throw new ConfigError(
      `${path}: cannot tell which AWS region to sign the MSK IAM token for: the trigger names no cluster arn, no broker in ${brokers.join(',') || '(none)'} ` +
        'is an MSK host (….kafka.<region>.amazonaws.com), and AWS_REGION is not set. Set arn to the cluster\'s ARN, or AWS_REGION.',
    );
  }
  const tokens = (o.tokens ?? mskIamTokens)({ region, path });
  await tokens.token();
  return { region, tokens };
}

/** Every secret value in `security`, for redaction (client.ts): passwords, keys, passphrases. */
export function secretValues(security: KafkaSecurity): string[] {
  return [security.sasl?.password, security.ssl?.key, security.ssl?.passphrase].filter((v): v is string => typeof v === 'string' && v !== '');
}

/** Replaces every occurrence of the given values in the strings of a value (deeply) with `[redacted]`. */
export function redactor(values: readonly string[]): <T>(value: T) => T {
  const sorted = [...new Set(values)].filter((v) => v !== '').sort((a, b) => b.length - a.length);
  if (sorted.length === 0) return (value) => value;
  const walk = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return sorted.reduce((out, v) => out.split(v).join('[redacted]'), value);
    if (depth > 8 || typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return value;
    if (Array.isArray(value)) return value.map((v) => walk(v, depth + 1));
    if (value instanceof Error) return walk({ name: value.name, message: value.message }, depth + 1);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, depth + 1)]));
  };
  return <T>(value: T) => walk(value, 0) as T;
}

/** A short, secret-free description for logs: `SASL/SCRAM-SHA-512 as alice over TLS`. */
export function describeSecurity(security: KafkaSecurity): string {
  const sasl = security.iam
    ? `SASL/OAUTHBEARER (MSK IAM, ${security.iam.region})`
    : security.sasl ? `SASL/${security.sasl.mechanism.toUpperCase()} as ${security.sasl.username}` : 'no SASL';
  const tls = !security.ssl ? 'plaintext' : security.ssl.cert ? 'mutual TLS' : 'TLS';
  return `${sasl}, ${tls}`;
}
