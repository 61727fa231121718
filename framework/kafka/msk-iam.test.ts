import { createHash, createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isConfigError } from '../errors.ts';
import { mskIamTokens, needsRefresh, type CredentialsProvider } from './msk-iam.ts';

// AWS's documented example key pair: fixed credentials, so the signature is reproducible.
const KEY = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const AT = 'functions.orders.events[0].sluice';
const T0 = Date.UTC(2026, 11, 1, 10, 0, 0);
const fixed: CredentialsProvider = async () => KEY;

/** The token's URL: MSK's token is the base64url of a presigned https URL. */
const decode = (token: string) => new URL(Buffer.from(token, 'base64url').toString('utf8'));

/** SigV4 for a presigned GET, computed here from the specification, not by the signer under test. */
function sigV4(url: URL, secret: string): string {
  const q = url.searchParams;
  const [date, region, service] = q.get('X-Amz-Credential')!.split('/').slice(1, 4) as [string, string, string];
  const enc = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const signed = [...q.entries()].filter(([k]) => k !== 'X-Amz-Signature' && k !== 'User-Agent').map(([k, v]) => `${enc(k)}=${enc(v)}`).sort();
  const canonical = ['GET', url.pathname, signed.join('&'), `host:${url.host}\n`, 'host', createHash('sha256').update('').digest('hex')].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', q.get('X-Amz-Date'), scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
  const key = [date, region, service, 'aws4_request'].reduce<Buffer | string>((k, part) => hmac(k, part), `AWS4${secret}`);
  return createHmac('sha256', key).update(toSign).digest('hex');
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
});

describe('MSK IAM tokens', () => {
  it('are a SigV4-presigned kafka-cluster:Connect request for the region, expiring when the signer says (900 s)', async () => {
    const token = await mskIamTokens({ region: 'eu-west-1', path: AT, credentials: fixed }).token();
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/); // base64url, unpadded
    const url = decode(token);
    // AWS's signer signs kafka.<region>.amazonaws.com, not the broker's host (MSK checks the region and the signature).
    expect(`${url.protocol}//${url.host}${url.pathname}`).toBe('https://kafka.eu-west-1.amazonaws.com/');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      Action: 'kafka-cluster:Connect',
      'User-Agent': 'aws-msk-iam-sasl-signer-js/1.0.3',
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': 'AKIDEXAMPLE/20261201/eu-west-1/kafka-cluster/aws4_request',
      'X-Amz-Date': '20261201T100000Z',
      'X-Amz-Expires': '900',
      'X-Amz-SignedHeaders': 'host',
      'X-Amz-Signature': sigV4(url, KEY.secretAccessKey),
    });
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('carry a session token, and expire with credentials that expire sooner than 900 s', async () => {
    const session: CredentialsProvider = async () => ({ ...KEY, sessionToken: 'FwoGZXIvYXdzEXAMPLE', expiration: new Date(T0 + 300_000) });
    const url = decode(await mskIamTokens({ region: 'us-east-2', path: AT, credentials: session }).token());
    expect(url.searchParams.get('X-Amz-Security-Token')).toBe('FwoGZXIvYXdzEXAMPLE');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(url.searchParams.get('X-Amz-Signature')).toBe(sigV4(url, KEY.secretAccessKey));
  });

  it('are reused until a fifth of their life is left, then signed anew, once for concurrent callers', async () => {
    const calls = vi.fn(fixed);
    const source = mskIamTokens({ region: 'eu-west-1', path: AT, credentials: calls });
    const [first, same] = await Promise.all([source.token(), source.token()]);
    expect(same).toBe(first);
    expect(calls).toHaveBeenCalledTimes(1);
    vi.setSystemTime(T0 + 719_000); // 181 s left of 900
    expect(await source.token()).toBe(first);
    vi.setSystemTime(T0 + 720_000); // 180 s left: refreshed before it expires
    const second = await source.token();
    expect(second).not.toBe(first);
    expect(decode(second).searchParams.get('X-Amz-Date')).toBe('20261201T101200Z');
    expect(source.issued()).toEqual([second, first]);
    // librdkafka's refresh callback answers with each token's expiry (rdkafka/security.ts).
    expect([source.expiresAt?.(first), source.expiresAt?.(second), source.expiresAt?.('never-issued')]).toEqual([T0 + 900_000, T0 + 1_620_000, undefined]);
    expect(calls).toHaveBeenCalledTimes(2);
  });

  it('refresh with a margin of a fifth of the life, at least 60 s, at most half', () => {
    expect(needsRefresh(undefined, 0)).toBe(true);
    expect(needsRefresh({ issuedAt: 0, expiresAt: 900_000 }, 719_999)).toBe(false);
    expect(needsRefresh({ issuedAt: 0, expiresAt: 900_000 }, 720_000)).toBe(true);
    expect(needsRefresh({ issuedAt: 0, expiresAt: 200_000 }, 139_999)).toBe(false); // 60 s margin
    expect(needsRefresh({ issuedAt: 0, expiresAt: 60_000 }, 29_999)).toBe(false); // half of a short life
    expect(needsRefresh({ issuedAt: 0, expiresAt: 60_000 }, 30_000)).toBe(true);
  });

  it('come from the SDK default chain: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', KEY.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', KEY.secretAccessKey);
    vi.stubEnv('AWS_SESSION_TOKEN', '');
    vi.stubEnv('AWS_PROFILE', '');
    const url = decode(await mskIamTokens({ region: 'eu-west-1', path: AT }).token());
    expect(url.searchParams.get('X-Amz-Credential')).toBe('AKIDEXAMPLE/20261201/eu-west-1/kafka-cluster/aws4_request');
    expect(url.searchParams.get('X-Amz-Signature')).toBe(sigV4(url, KEY.secretAccessKey));
  });
});

describe('MSK IAM failures', () => {
  const failure = async (credentials: CredentialsProvider): Promise<Error> =>
    mskIamTokens({ region: 'eu-west-1', path: AT, credentials }).token().then(() => new Error('no failure'), (e: unknown) => e as Error);

  it('no credentials anywhere in the default chain: one line naming the trigger, the chain and the fix', async () => {
    for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE', 'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI', 'AWS_CONTAINER_CREDENTIALS_FULL_URI', 'AWS_WEB_IDENTITY_TOKEN_FILE', 'AWS_ROLE_ARN']) vi.stubEnv(name, '');
    vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', '/nonexistent/credentials');
    vi.stubEnv('AWS_CONFIG_FILE', '/nonexistent/config');
    vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true');
    const e = await mskIamTokens({ region: 'eu-west-1', path: AT }).token().then(() => new Error('no failure'), (x: unknown) => x as Error);
    expect(isConfigError(e)).toBe(true);
    expect(e.message).toMatch(/^functions\.orders\.events\[0\]\.sluice: no AWS credentials for MSK IAM: the AWS SDK's default chain \(.*\) found none\. Set AWS_PROFILE/);
    expect(e.message).not.toContain('\n');
  });

  it('an expired session: says so with when, never the key', async () => {
    const e = await failure(async () => ({ ...KEY, sessionToken: 'FwoGZXIvYXdzEXAMPLE', expiration: new Date(T0 - 60_000) }));
    expect(e.message).toBe(
      `${AT}: the AWS session for MSK IAM has expired (its credentials expired at 2026-12-01T09:59:00.000Z). ` +
        'Refresh it (aws sso login --profile <profile>, or new AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY/AWS_SESSION_TOKEN) and start again.',
    );
    const sso = await failure(async () => {
      throw Object.assign(new Error('The SSO session associated with this profile has expired or is otherwise invalid. To refresh this SSO session run aws sso login with the corresponding profile.'), { name: 'CredentialsProviderError' });
    });
    expect(sso.message).toMatch(/^functions\.orders\.events\[0\]\.sluice: the AWS session for MSK IAM has expired \(CredentialsProviderError: The SSO session/);
    for (const m of [e.message, sso.message]) {
      expect(m).not.toContain(KEY.secretAccessKey);
      expect(m).not.toContain('FwoGZXIvYXdzEXAMPLE');
    }
  });
});
