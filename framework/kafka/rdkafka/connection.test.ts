import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { isConfigError } from '../../errors.ts';
import { createLogger } from '../../observe/logger.ts';
import { rdkafkaConnection } from './connection.ts';

const PASSWORD = 'pa55-w0rd-never-logged';
const TOKEN = 'signed-token-never-logged';
const AT = 'functions.recorder.events[0].sluice';
const REFUSED = '[thrd:sasl_plaintext://b:9096/bootstrap]: sasl_plaintext://b:9096/bootstrap: SASL authentication error: Authentication failed (after 3ms in state AUTH_REQ)';

function connectionWith(security: Parameters<typeof rdkafkaConnection>[0]['security'], level: 'debug' | 'info' = 'debug') {
  const lines: string[] = [];
  const logger = createLogger('t', { level, format: 'json', write: (l) => lines.push(l) });
  const connection = rdkafkaConnection({ askedBy: AT, brokers: ['b:9096'], groupId: 'g', security, logger });
  const client = new EventEmitter();
  let starting: ((e: Error) => void) | undefined;
  const refusals: Error[] = [];
  connection.watch(client, () => starting);
  return { lines, connection, client, refusals, startNow: () => (starting = (e) => refusals.push(e)), started: () => (starting = undefined) };
}

describe("the librdkafka member's connection", () => {
  it("forwards librdkafka's log at debug level, with librdkafka's security debug on, and cuts out the password", () => {
    const c = connectionWith({ sasl: { mechanism: 'plain', username: 'alice', password: PASSWORD } });
    expect(c.connection.config).toMatchObject({ 'security.protocol': 'sasl_plaintext', 'sasl.password': PASSWORD, debug: 'broker,security' });
    c.client.emit('event.log', { severity: 7, fac: 'SASL', message: `a line that quotes ${PASSWORD}` });
    const forwarded = c.lines.map((l) => JSON.parse(l) as { namespace: string; message: string; fac?: string });
    expect(forwarded.at(-1)).toMatchObject({ namespace: 't:librdkafka', message: 'a line that quotes [redacted]', fac: 'SASL' });
    expect(c.lines.join('\n')).toContain('SASL/PLAIN as alice, plaintext');
    expect(c.lines.join('\n')).not.toContain(PASSWORD);
  });

  it('asks librdkafka for no debug lines above debug level', () => {
    expect(connectionWith({}, 'info').connection.config).toEqual({ 'security.protocol': 'plaintext' });
  });

  it('hands a refusal to the start while it runs, and only then', () => {
    const c = connectionWith({ sasl: { mechanism: 'scram-sha-512', username: 'alice', password: PASSWORD } });
    c.client.emit('event.log', { severity: 3, fac: 'FAIL', message: REFUSED });
    expect(c.refusals).toEqual([]);
    c.startNow();
    c.client.emit('event.log', { severity: 3, fac: 'FAIL', message: REFUSED });
    expect(c.refusals).toHaveLength(1);
    expect(isConfigError(c.refusals[0])).toBe(true);
    expect(c.refusals[0]!.message).toMatch(/^functions\.recorder\.events\[0\]\.sluice: Kafka at b:9096 refused the credentials \(SASL authentication error: Authentication failed\)\./);
  });

  it("cuts the tokens the source handed out from a failed refresh, which fails a start and is a warning after", () => {
    const iam = { region: 'eu-west-1', tokens: { token: async () => TOKEN, issued: () => [TOKEN] } };
    const c = connectionWith({ iam, ssl: {} });
    c.startNow();
    c.client.emit('error', new Error(`oauthbearer_token_refresh_cb: bad token ${TOKEN}`));
    expect(c.refusals.map((e) => e.message)).toEqual([`${AT}: no token for SASL/OAUTHBEARER (oauthbearer_token_refresh_cb: bad token [redacted])`]);
    c.started();
    c.client.emit('error', new Error(`oauthbearer_token_refresh_cb: bad token ${TOKEN}`));
    expect(c.refusals).toHaveLength(1);
    const warned = c.lines.map((l) => JSON.parse(l) as { level: string; error?: string }).filter((l) => l.level === 'warn');
    expect(warned.map((l) => l.error)).toEqual(['oauthbearer_token_refresh_cb: bad token [redacted]']);
    expect(c.lines.join('\n')).not.toContain(TOKEN);
  });
});
