import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KafkaAccess } from '../config/types.ts';
import { isConfigError } from '../errors.ts';
import { createLogger } from '../observe/logger.ts';
import { ClusterAdmin } from './kafkajs/admin.ts';
import { createKafkaClient } from './kafkajs/client.ts';
import { envSecrets } from './secrets.ts';
import { describeSecurity, redactor, resolveSecurity, resolveTriggerSecurity } from './security.ts';

const AT = 'functions.orders.events[0].sluice';
const arn = (name: string) => `arn:aws:secretsmanager:eu-west-1:123456789012:secret:${name}-AbC123`;
const PASSWORD = 'pa55-w0rd-never-logged';
const KEY = '-----BEGIN PRIVATE KEY-----\nMIIEv-key-material\n-----END PRIVATE KEY-----';
const env = {
  SLUICE_SECRET_ALICE: JSON.stringify({ username: 'alice', password: PASSWORD }),
  SLUICE_SECRET_CLIENT: JSON.stringify({ certificate: 'CERT-PEM', privateKey: KEY, privateKeyPassword: 'key-pass' }),
  SLUICE_SECRET_CA: JSON.stringify({ certificate: 'CA-PEM' }),
  SLUICE_SECRET_NOT_JSON: `password=${PASSWORD}`,
  SLUICE_SECRET_NO_PASSWORD: JSON.stringify({ username: 'alice', pass: PASSWORD }),
};
const resolve = (access: KafkaAccess) => resolveSecurity(access, envSecrets(env), AT);

async function configError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(isConfigError(e)).toBe(true);
    return (e as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('resolveSecurity', () => {
  it('maps a SASL secret to the mechanism, username and password, TLS as access says', async () => {
    expect(await resolve({ tls: false, sasl: { mechanism: 'scram-sha-512', secretArn: arn('alice') } })).toEqual({
      sasl: { mechanism: 'scram-sha-512', username: 'alice', password: PASSWORD },
    });
    expect(await resolve({ tls: true, sasl: { mechanism: 'plain', secretArn: arn('alice') } })).toEqual({
      sasl: { mechanism: 'plain', username: 'alice', password: PASSWORD },
      ssl: {},
    });
  });

  it('maps a client certificate and a root CA to TLS settings', async () => {
    const security = await resolve({ tls: true, clientCertificateSecretArn: arn('client'), rootCaSecretArn: arn('ca') });
    expect(security).toEqual({ ssl: { ca: ['CA-PEM'], cert: 'CERT-PEM', key: KEY, passphrase: 'key-pass' } });
    expect(describeSecurity(security)).toBe('no SASL, mutual TLS');
    expect(await resolve({ tls: true })).toEqual({ ssl: {} });
    expect(await resolveSecurity(undefined, envSecrets({}), AT)).toEqual({});
  });

  it('names the property, the ARN and the variable of a missing secret', async () => {
    const message = await configError(resolve({ tls: true, sasl: { mechanism: 'scram-sha-256', secretArn: arn('bob') } }));
    expect(message).toMatch(
      new RegExp(`^${AT.replace(/[.[\]]/g, '\\$&')}\\.accessConfigurations\\.saslScram256Auth: no value for the secret ${arn('bob')}: set the environment variable SLUICE_SECRET_BOB`),
    );
    expect(message).toContain('{"username": "…", "password": "…"}');
  });

  it('says what is wrong with a malformed secret without quoting it', async () => {
    const notJson = await configError(resolve({ tls: false, sasl: { mechanism: 'plain', secretArn: arn('not_json') } }));
    expect(notJson).toBe(`${AT}.accessConfigurations.saslPlainAuth: the secret ${arn('not_json')} is not JSON. It must hold {"username": "…", "password": "…"}.`);
    const noPassword = await configError(resolve({ tls: false, sasl: { mechanism: 'plain', secretArn: arn('no_password') } }));
    expect(noPassword).toContain('has no "password" string');
    for (const m of [notJson, noPassword]) expect(m).not.toContain(PASSWORD);
    expect(await configError(resolve({ tls: true, clientCertificateSecretArn: arn('ca') }))).toContain('clientCertificateTlsAuth: the secret');
  });

  it('reads secrets only for triggers that have access', async () => {
    const plain = { path: 'functions.a.events[0].sluice' };
    const secured = { path: AT, access: { tls: false, sasl: { mechanism: 'plain' as const, secretArn: arn('alice') } } };
    const map = await resolveTriggerSecurity([plain, secured], envSecrets(env));
    expect(map.get(plain)).toEqual({});
    expect(map.get(secured)?.sasl?.username).toBe('alice');
  });
});

describe('secrets never reach the logs', () => {
  it('redacts every occurrence inside strings, lists and maps, and leaves bytes alone', () => {
    const redact = redactor([PASSWORD, 'key']);
    const bytes = Buffer.from('x');
    expect(redact({ message: `auth ${PASSWORD} failed`, nested: [{ e: new Error(`bad ${PASSWORD}`) }], bytes, n: 1 })).toEqual({
      message: 'auth [redacted] failed',
      nested: [{ e: { name: 'Error', message: 'bad [redacted]' } }],
      bytes,
      n: 1,
    });
    expect(redactor([])('same')).toBe('same');
  });

  let server: Server;
  let port = 0;
  beforeAll(async () => {
    // A "broker" that accepts and hangs up at once: the connection fails after the SASL settings were used.
    server = createServer((s) => s.destroy());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('leaves the password out of what a client logs at debug level, when created and when it fails to connect', async () => {
    const lines: string[] = [];
    const logger = createLogger('test', { level: 'debug', format: 'json', write: (l) => lines.push(l) });
    const security = await resolve({ tls: false, sasl: { mechanism: 'scram-sha-512', secretArn: arn('alice') } });
    const brokers = [`127.0.0.1:${port}`];
    const kafka = createKafkaClient({ brokers, logger, retries: 0, connectionTimeoutMs: 500, ...security });
    // Should a kafkajs message ever quote the password, it is redacted on its way to our logger.
    kafka.logger().error(`kafkajs says ${PASSWORD}`, { sasl: { password: PASSWORD } });
    const error = await ClusterAdmin.connect(kafka, brokers).then(() => undefined, (e: unknown) => e as Error);
    expect(error?.message).toContain(`Cannot reach Kafka at 127.0.0.1:${port}`);
    expect(lines.join('\n')).toContain('"security":"SASL/SCRAM-SHA-512 as alice, plaintext"');
    expect(lines.join('\n')).toContain('kafkajs says [redacted]');
    expect(lines.length).toBeGreaterThan(3);
    for (const line of [...lines, error?.message ?? '']) expect(line).not.toContain(PASSWORD);
  });
});
