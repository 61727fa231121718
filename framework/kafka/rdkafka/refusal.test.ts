import { describe, expect, it } from 'vitest';
import { isConfigError } from '../../errors.ts';
import { refusalIn, refusedAtStart } from './refusal.ts';

// Lines librdkafka 2.15.1 logged here (severity 3, FAIL) against brokers that refused the client.
const SCRAM_REFUSED =
  '[thrd:sasl_plaintext://127.0.0.1:39592/bootstrap]: sasl_plaintext://127.0.0.1:39592/bootstrap: SASL authentication error: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512 (after 357ms in state AUTH_REQ)';
const TOKEN_REFUSED =
  '[thrd:sasl_ssl://127.0.0.1:27113/bootstrap]: sasl_ssl://127.0.0.1:27113/bootstrap: SASL authentication error: {"status":"invalid_token"} (after 302ms in state AUTH_REQ, 1 identical error(s) suppressed)';
const UNTRUSTED =
  '[thrd:sasl_ssl://127.0.0.1:27113/bootstrap]: sasl_ssl://127.0.0.1:27113/bootstrap: SSL handshake failed: error:0A000086:SSL routines::certificate verify failed: broker certificate could not be verified, verify that ssl.ca.location is correctly configured or root CA certificates are installed (install ca-certificates package) (after 4ms in state SSL_HANDSHAKE)';
const UNTRUSTED_SHORT = '[thrd:sasl_ssl://127.0.0.1:27113/bootstrap]: sasl_ssl://127.0.0.1:27113/bootstrap: error:0A000086:SSL routines::certificate verify failed (after 4ms in state SSL_HANDSHAKE)';
const fail = (message: string) => ({ severity: 3, fac: 'FAIL', message });
const AT = 'functions.recorder.events[0].sluice';

describe('refusals in librdkafka\'s log', () => {
  it('are the SASL and TLS failures, said without the thread, the broker and the state', () => {
    expect(refusalIn(fail(SCRAM_REFUSED))).toEqual({ kind: 'sasl', said: 'SASL authentication error: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512' });
    expect(refusalIn(fail(TOKEN_REFUSED))).toEqual({ kind: 'sasl', said: 'SASL authentication error: {"status":"invalid_token"}' });
    expect(refusalIn(fail(UNTRUSTED))?.kind).toBe('tls');
    expect(refusalIn(fail(UNTRUSTED))?.said).toMatch(/^SSL handshake failed: error:0A000086:SSL routines::certificate verify failed: broker certificate could not be verified/);
    expect(refusalIn(fail(UNTRUSTED_SHORT))).toEqual({ kind: 'tls', said: 'error:0A000086:SSL routines::certificate verify failed' });
  });

  it('are not what librdkafka retries and gets over: a broker down, a debug line about authentication', () => {
    expect(refusalIn(fail('[thrd:127.0.0.1:31092/bootstrap]: 127.0.0.1:31092/bootstrap: Connect to ipv4#127.0.0.1:31092 failed: Connection refused (after 0ms in state CONNECT)'))).toBeUndefined();
    expect(refusalIn({ severity: 7, fac: 'SASL', message: 'SASL authentication error in a debug line' })).toBeUndefined();
    expect(refusalIn({ severity: 7, fac: 'SCRAMAUTH', message: 'Authenticated as alice using SCRAM-SHA-512' })).toBeUndefined();
  });
});

describe("the start's error", () => {
  const sasl = { mechanism: 'scram-sha-512' as const, username: 'alice', password: 'x' };
  it('names the trigger, the brokers, what they said and the secret to check', () => {
    const e = refusedAtStart(AT, ['127.0.0.1:39592'], { sasl }, refusalIn(fail(SCRAM_REFUSED))!);
    expect(isConfigError(e)).toBe(true);
    expect(e.message).toBe(
      `${AT}: Kafka at 127.0.0.1:39592 refused the credentials (SASL authentication error: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512). ` +
        'Check the username and password in the secret that accessConfigurations names (locally: its SLUICE_SECRET_<NAME> variable), and that the user exists on the cluster for that SASL mechanism.',
    );
  });

  it('says the MSK IAM token was refused for IAM, and points at the CA (and the client certificate) for TLS', () => {
    const iam = { region: 'eu-west-1', tokens: { token: async () => 't', issued: () => ['t'] } };
    expect(refusedAtStart(AT, ['b:9098'], { iam, ssl: {} }, refusalIn(fail(TOKEN_REFUSED))!).message).toMatch(
      /^functions\.recorder\.events\[0\]\.sluice: Kafka at b:9098 refused the MSK IAM token \(SASL authentication error: \{"status":"invalid_token"\}\)\. Check that the AWS credentials' role is allowed kafka-cluster:Connect/,
    );
    const tls = refusedAtStart(AT, ['b:9094'], { ssl: { ca: ['CA'] } }, refusalIn(fail(UNTRUSTED_SHORT))!).message;
    expect(tls).toMatch(/^functions\.recorder\.events\[0\]\.sluice: Kafka at b:9094: the TLS handshake failed \(error:0A000086:SSL routines::certificate verify failed\)\. Check that serverRootCaCertificate holds the CA/);
    expect(tls).not.toContain('clientCertificateTlsAuth');
    expect(refusedAtStart(AT, ['b:9094'], { ssl: { cert: 'C', key: 'K' } }, refusalIn(fail(UNTRUSTED_SHORT))!).message).toContain("the brokers trust clientCertificateTlsAuth's certificate");
  });
});
