import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { isConfigError } from '../errors.ts';
import { buildAccess } from './access.ts';
import { resolveService } from './load.ts';
import { sluiceEventSchema } from './schema.ts';
import { checkSluiceEvent } from './validate.ts';

const AT = 'functions.orders.events[0].sluice';
const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:kafka-alice-AbC123';
const CA = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:kafka-ca';
const problemsOf = (accessConfigurations: unknown, extra: Record<string, unknown> = {}) =>
  checkSluiceEvent({ topic: 'orders', accessConfigurations, ...extra }, AT).problems;

describe('accessConfigurations schema', () => {
  it('takes the kafka event\'s names, each an ARN or a list of one, and reads past the VPC settings', () => {
    const event = {
      topic: 'orders',
      accessConfigurations: {
        saslScram512Auth: [ARN],
        clientCertificateTlsAuth: ARN,
        serverRootCaCertificate: [CA],
        vpcSubnet: ['subnet-0a1b', 'subnet-2c3d'],
        vpcSecurityGroup: ['sg-0123'],
      },
      tls: true,
    };
    expect(checkSluiceEvent(event, AT)).toEqual({ value: event, problems: [] });
    const serverlessAjv = new Ajv({ allErrors: true, coerceTypes: 'array', verbose: true, strict: true, strictRequired: false });
    expect(serverlessAjv.compile(sluiceEventSchema)(event)).toBe(true);
  });

  it('refuses more than one SASL mechanism, naming them', () => {
    expect(problemsOf({ saslPlainAuth: ARN, saslScram512Auth: [ARN] })).toEqual([
      `${AT}.accessConfigurations: sets saslPlainAuth and saslScram512Auth; a trigger authenticates with one SASL mechanism. Keep one of them.`,
    ]);
    expect(problemsOf({ saslScram256Auth: ARN, saslScram512Auth: ARN })[0]).toContain('sets saslScram256Auth and saslScram512Auth');
  });

  it('says what a secret ARN looks like', () => {
    const [line] = problemsOf({ saslScram512Auth: 'kafka-alice' });
    expect(line).toMatch(/^functions\.orders\.events\[0\]\.sluice\.accessConfigurations\.saslScram512Auth: must be a Secrets Manager secret ARN \(got "kafka-alice"\)\. saslScram512Auth is the ARN/);
    expect(problemsOf({ serverRootCaCertificate: ['arn:aws:sqs:eu-west-1:123456789012:q'] })[0]).toContain('serverRootCaCertificate[0]: must be a Secrets Manager secret ARN');
    expect(problemsOf({ saslPlainAuth: [ARN, ARN] })[0]).toContain('saslPlainAuth: must list at most 1 item(s)');
    expect(problemsOf({ saslPlainAuth: { arn: ARN } })[0]).toContain('saslPlainAuth: must be a secret ARN, or a list of one');
    expect(problemsOf({ vpcSubnet: ['net-1'] })[0]).toContain('vpcSubnet[0]: must be a subnet id, subnet-… (got "net-1"). vpcSubnet lists');
  });

  it('suggests the closest name for a typo', () => {
    expect(problemsOf({ saslScram512: ARN })).toEqual([`${AT}.accessConfigurations: unknown property "saslScram512". Did you mean "saslScram512Auth"?`]);
  });
});

describe('buildAccess', () => {
  it('is undefined without accessConfigurations or tls', () => {
    expect(buildAccess({}, AT)).toEqual({ access: undefined, problems: [] });
    expect(buildAccess({ accessConfigurations: { vpcSubnet: ['subnet-1'], vpcSecurityGroup: ['sg-1'] } }, AT)).toEqual({ access: undefined, problems: [] });
    expect(buildAccess({ tls: false }, AT)).toEqual({ access: undefined, problems: [] });
  });

  it('maps each SASL name to its mechanism, over TLS unless tls: false', () => {
    expect(buildAccess({ accessConfigurations: { saslPlainAuth: ARN } }, AT).access).toEqual({ tls: true, sasl: { mechanism: 'plain', secretArn: ARN } });
    expect(buildAccess({ accessConfigurations: { saslScram256Auth: [ARN] } }, AT).access?.sasl).toEqual({ mechanism: 'scram-sha-256', secretArn: ARN });
    expect(buildAccess({ accessConfigurations: { saslScram512Auth: ARN }, tls: false }, AT)).toEqual({
      access: { tls: false, sasl: { mechanism: 'scram-sha-512', secretArn: ARN } },
      problems: [],
    });
  });

  it('turns TLS on for a client certificate or a root CA', () => {
    expect(buildAccess({ accessConfigurations: { clientCertificateTlsAuth: ARN, serverRootCaCertificate: [CA] } }, AT).access).toEqual({
      tls: true,
      clientCertificateSecretArn: ARN,
      rootCaSecretArn: CA,
    });
    expect(buildAccess({ tls: true }, AT).access).toEqual({ tls: true });
  });

  it('refuses tls: false beside a TLS-only setting', () => {
    expect(buildAccess({ accessConfigurations: { serverRootCaCertificate: CA }, tls: false }, AT).problems).toEqual([
      `${AT}.tls: false contradicts accessConfigurations.serverRootCaCertificate, which only work over TLS (got false). Remove tls: false, or remove serverRootCaCertificate.`,
    ]);
  });
});

describe('a trigger with accessConfigurations', () => {
  const doc = (sluice: Record<string, unknown>) => ({
    service: 'shop',
    provider: { name: 'aws' },
    functions: { orders: { handler: 'functions/orders.handler', events: [{ sluice: { topic: 'orders', ...sluice } }] } },
  });

  it('carries access into the TriggerSpec, and nothing without it', () => {
    const [trigger] = resolveService(doc({ accessConfigurations: { saslScram512Auth: [ARN] } }), { rootDir: '/srv', env: {} }).triggers;
    expect(trigger?.access).toEqual({ tls: true, sasl: { mechanism: 'scram-sha-512', secretArn: ARN } });
    expect(resolveService(doc({}), { rootDir: '/srv', env: {} }).triggers[0]).not.toHaveProperty('access');
  });

  it('reports the cross-field problems of the file at load', () => {
    let message = '';
    try {
      resolveService(doc({ accessConfigurations: { clientCertificateTlsAuth: ARN }, tls: false }), { rootDir: '/srv', env: {} });
    } catch (e) {
      expect(isConfigError(e)).toBe(true);
      message = (e as Error).message;
    }
    expect(message).toContain(`${AT}.tls: false contradicts accessConfigurations.clientCertificateTlsAuth`);
  });
});
