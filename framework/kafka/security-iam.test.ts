import { describe, expect, it, vi } from 'vitest';
import { isConfigError } from '../errors.ts';
import type { MskTokenSource } from './msk-iam.ts';
import { describeSecurity, envSecrets, resolveSecurity } from './security.ts';

const AT = 'functions.orders.events[0].sluice';
const CLUSTER = 'arn:aws:kafka:eu-west-1:123456789012:cluster/orders/abc-1';
const tokens = (): MskTokenSource & { calls: number } => {
  const s = { calls: 0, token: async () => (s.calls++, 'the-token'), issued: () => ['the-token'] };
  return s;
};

describe('resolveSecurity with MSK IAM', () => {
  it('signs for the cluster ARN\'s region, signs the first token at once, and describes itself without it', async () => {
    const source = tokens();
    const factory = vi.fn(() => source);
    const security = await resolveSecurity({ tls: true, iam: { clusterArn: CLUSTER } }, envSecrets({}), AT, ['b-1.x.y.c2.kafka.us-east-1.amazonaws.com:9098'], { env: {}, tokens: factory });
    expect(factory).toHaveBeenCalledWith({ region: 'eu-west-1', path: AT });
    expect(source.calls).toBe(1);
    expect(security).toEqual({ iam: { region: 'eu-west-1', tokens: source }, ssl: {} });
    expect(describeSecurity(security)).toBe('SASL/OAUTHBEARER (MSK IAM, eu-west-1), TLS');
  });

  it('falls back to the broker host, then AWS_REGION, and fails in one line when neither says', async () => {
    const region = async (brokers: string[], env: Record<string, string>) =>
      (await resolveSecurity({ tls: true, iam: {} }, envSecrets({}), AT, brokers, { env, tokens })).iam?.region;
    expect(await region(['b-1.x.y.c2.kafka.us-east-1.amazonaws.com:9098'], { AWS_REGION: 'eu-west-1' })).toBe('us-east-1');
    expect(await region(['127.0.0.1:27113'], { AWS_REGION: 'eu-west-1' })).toBe('eu-west-1');
    const e = await region(['127.0.0.1:27113'], {}).then(() => undefined, (x: unknown) => x as Error);
    expect(isConfigError(e)).toBe(true);
    expect(e?.message).toBe(
      `${AT}: cannot tell which AWS region to sign the MSK IAM token for: the trigger names no cluster arn, no broker in 127.0.0.1:27113 ` +
        "is an MSK host (….kafka.<region>.amazonaws.com), and AWS_REGION is not set. Set arn to the cluster's ARN, or AWS_REGION.",
    );
  });
});
