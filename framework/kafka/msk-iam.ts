/**
 * MSK IAM tokens for SASL/OAUTHBEARER: AWS's own signer (aws-msk-iam-sasl-signer-js) presigns
 * a `kafka-cluster:Connect` request with SigV4 for the region, using credentials from the AWS
 * SDK's default provider chain (environment, profile or SSO, ECS task role, instance role),
 * which the SDK caches and refreshes before they expire. A token is reused until a fifth of its
 * life (at least a minute) is left, then signed anew, so kafkajs's (re)authentication never
 * sends one about to expire. Nothing here logs; no message carries a key or a token.
 */
import { generateAuthTokenFromCredentialsProvider, type GenerateAuthTokenFromCredentialOptions } from 'aws-msk-iam-sasl-signer-js';
import { ConfigError } from '../errors.ts';

export type CredentialsProvider = GenerateAuthTokenFromCredentialOptions['awsCredentialsProvider'];

export interface MskTokenSource {
  /** A token with more than the refresh margin of its life left (the kafkajs oauthBearerProvider's value). */
  token(): Promise<string>;
  /** The tokens handed out that may still be in use, for redaction (client.ts). */
  issued(): readonly string[];
  /** When a token it handed out expires (ms since the epoch), if it still holds it: librdkafka asks for a new one before. */
  expiresAt?(token: string): number | undefined;
}

export interface MskTokenOptions {
  region: string;
  /** Where the trigger is declared, for messages. */
  path: string;
  /** Default: the SDK's default chain (fromNodeProviderChain), created once per source. */
  credentials?: CredentialsProvider;
}

interface Held {
  value: string;
  issuedAt: number;
  expiresAt: number;
}

/** Pure: whether a token must be replaced now; the margin is a fifth of its life, at least 60 s, at most half. */
export function needsRefresh(held: Pick<Held, 'issuedAt' | 'expiresAt'> | undefined, now: number): boolean {
  if (held === undefined) return true;
  const life = held.expiresAt - held.issuedAt;
  const margin = Math.min(life / 2, Math.max(60_000, life / 5));
  return now >= held.expiresAt - margin;
}

export function mskIamTokens(o: MskTokenOptions): MskTokenSource {
  let provider = o.credentials;
  const credentials = async () => {
    provider ??= (await import('@aws-sdk/credential-providers')).fromNodeProviderChain();
    let c: Awaited<ReturnType<CredentialsProvider>>;
    try {
      c = await provider();
    } catch (e) {
      throw credentialsError(o.path, e);
    }
    if (c.expiration !== undefined && c.expiration.getTime() <= Date.now() + 1_000) throw expired(o.path, c.expiration);
    return c;
  };
  let held: Held | undefined;
  let previous: Held | undefined;
  let signing: Promise<Held> | undefined;
  const sign = async (): Promise<Held> => {
    const issuedAt = Date.now();
    const { token, expiryTime } = await generateAuthTokenFromCredentialsProvider({ region: o.region, awsCredentialsProvider: credentials });
    return { value: token, issuedAt, expiresAt: expiryTime };
  };
  return {
    async token() {
      if (!needsRefresh(held, Date.now())) return held!.value;
      signing ??= sign().finally(() => (signing = undefined));
      const next = await signing;
      if (held?.value !== next.value) [previous, held] = [held, next];
      return next.value;
    },
    issued: () => [held?.value, previous?.value].filter((v): v is string => v !== undefined),
    expiresAt: (token) => [held, previous].find((h) => h?.value === token)?.expiresAt,
  };
}

const CHAIN = "the AWS SDK's default chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE or ~/.aws, SSO, the ECS task role, the instance role)";

function credentialsError(path: string, e: unknown): ConfigError {
  const name = e instanceof Error ? e.name : 'Error';
  const message = e instanceof Error ? e.message.split('\n')[0]! : String(e);
  if (/expired|ExpiredToken|token.*(is|has) (invalid|expired)/i.test(message)) {
    return new ConfigError(
      `${path}: the AWS session for MSK IAM has expired (${name}: ${message}). ` +
        'Refresh it (aws sso login --profile <profile>, or new AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/AWS_SESSION_TOKEN) and start again.',
      { cause: e },
    );
  }
  if (/Could not load credentials from any providers/i.test(message)) {
    return new ConfigError(
      `${path}: no AWS credentials for MSK IAM: ${CHAIN} found none. ` +
        'Set AWS_PROFILE to a profile allowed kafka-cluster:Connect on the cluster, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (with AWS_SESSION_TOKEN for a session); in AWS, the task role.',
      { cause: e },
    );
  }
  return new ConfigError(`${path}: cannot get AWS credentials for MSK IAM from ${CHAIN} (${name}: ${message}). Fix that source, or set AWS_PROFILE or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY.`, { cause: e });
}

function expired(path: string, at: Date): ConfigError {
  return new ConfigError(
    `${path}: the AWS session for MSK IAM has expired (its credentials expired at ${at.toISOString()}). ` +
      'Refresh it (aws sso login --profile <profile>, or new AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/AWS_SESSION_TOKEN) and start again.',
  );
}
