import { describe, expect, it } from 'vitest';
import type { MskTokenSource } from '../msk-iam.ts';
import type { KafkaSecurity } from '../security.ts';
import { IAM_PRINCIPAL, iamTokenRefresh, rdkafkaSecurityConfig, UNKNOWN_TOKEN_LIFE_MS, type TokenRefresh } from './security.ts';

const alice = (mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512') => ({ mechanism, username: 'alice', password: 'pa55-w0rd' });
const CA1 = '-----BEGIN CERTIFICATE-----\nCA-ONE\n-----END CERTIFICATE-----';
const CA2 = '-----BEGIN CERTIFICATE-----\nCA-TWO\n-----END CERTIFICATE-----';
const tokens = (value: string, expiresAt?: number): MskTokenSource => ({
  token: async () => value,
  issued: () => [value],
  ...(expiresAt !== undefined ? { expiresAt: (t: string) => (t === value ? expiresAt : undefined) } : {}),
});

describe('librdkafka security configuration', () => {
  it('is plaintext without SASL or TLS', () => {
    expect(rdkafkaSecurityConfig({})).toEqual({ 'security.protocol': 'plaintext' });
  });

  it('names each SASL mechanism as librdkafka spells it, with the credentials', () => {
    const expected = { plain: 'PLAIN', 'scram-sha-256': 'SCRAM-SHA-256', 'scram-sha-512': 'SCRAM-SHA-512' } as const;
    for (const mechanism of ['plain', 'scram-sha-256', 'scram-sha-512'] as const) {
      expect(rdkafkaSecurityConfig({ sasl: alice(mechanism) })).toEqual({
        'security.protocol': 'sasl_plaintext', 'sasl.mechanisms': expected[mechanism], 'sasl.username': 'alice', 'sasl.password': 'pa55-w0rd',
      });
    }
  });

  it('is TLS with the system CAs (probed) for an empty ssl, with the CAs joined into one PEM string, and with a client certificate', () => {
    expect(rdkafkaSecurityConfig({ ssl: {} })).toEqual({ 'security.protocol': 'ssl', 'ssl.ca.location': 'probe' });
    expect(rdkafkaSecurityConfig({ ssl: { ca: [] } })).toEqual({ 'security.protocol': 'ssl', 'ssl.ca.location': 'probe' });
    expect(rdkafkaSecurityConfig({ ssl: { ca: [CA1, CA2] } })).toEqual({ 'security.protocol': 'ssl', 'ssl.ca.pem': `${CA1}\n${CA2}` });
    expect(rdkafkaSecurityConfig({ ssl: { ca: [CA1], cert: 'CERT-PEM', key: 'KEY-PEM', passphrase: 'key-pass' } })).toEqual({
      'security.protocol': 'ssl', 'ssl.ca.pem': CA1, 'ssl.certificate.pem': 'CERT-PEM', 'ssl.key.pem': 'KEY-PEM', 'ssl.key.password': 'key-pass',
    });
    expect(rdkafkaSecurityConfig({ ssl: { cert: 'CERT-PEM', key: 'KEY-PEM' } })).toEqual({
      'security.protocol': 'ssl', 'ssl.ca.location': 'probe', 'ssl.certificate.pem': 'CERT-PEM', 'ssl.key.pem': 'KEY-PEM',
    });
  });

  it('is SASL over TLS with both', () => {
    expect(rdkafkaSecurityConfig({ sasl: alice('scram-sha-512'), ssl: { ca: [CA1] } })).toEqual({
      'security.protocol': 'sasl_ssl', 'sasl.mechanisms': 'SCRAM-SHA-512', 'sasl.username': 'alice', 'sasl.password': 'pa55-w0rd', 'ssl.ca.pem': CA1,
    });
  });

  it('is OAUTHBEARER for MSK IAM, with the refresh callback and no username or password', () => {
    const security: KafkaSecurity = { iam: { region: 'eu-west-1', tokens: tokens('the-token') }, ssl: {} };
    const config = rdkafkaSecurityConfig(security);
    expect(Object.keys(config).sort()).toEqual(['oauthbearer_token_refresh_cb', 'sasl.mechanisms', 'security.protocol', 'ssl.ca.location']);
    expect(config).toMatchObject({ 'security.protocol': 'sasl_ssl', 'sasl.mechanisms': 'OAUTHBEARER' });
    expect(typeof config.oauthbearer_token_refresh_cb).toBe('function');
  });
});

describe('the OAUTHBEARER refresh callback', () => {
  it("answers with the source's token and its expiry in ms since the epoch (librdkafka refuses one in the past)", async () => {
    const refresh = iamTokenRefresh(tokens('signed', 1_700_000_900_000), () => 1_700_000_000_000);
    expect(await refresh('')).toEqual({ tokenValue: 'signed', lifetime: 1_700_000_900_000, principal: IAM_PRINCIPAL });
  });

  it('says a token of unknown expiry lives a minute from now, so librdkafka asks again before the source replaces it', async () => {
    const refresh = iamTokenRefresh(tokens('jwt'), () => 1_700_000_000_000);
    expect(await refresh('')).toEqual({ tokenValue: 'jwt', lifetime: 1_700_000_000_000 + UNKNOWN_TOKEN_LIFE_MS, principal: IAM_PRINCIPAL });
  });

  it("rejects with the source's error, which the binding hands to librdkafka as the refresh failure", async () => {
    const failing: MskTokenSource = { token: async () => { throw new Error('no AWS credentials'); }, issued: () => [] };
    const config = rdkafkaSecurityConfig({ iam: { region: 'eu-west-1', tokens: failing } });
    await expect((config.oauthbearer_token_refresh_cb as TokenRefresh)('')).rejects.toThrow('no AWS credentials');
  });
});
