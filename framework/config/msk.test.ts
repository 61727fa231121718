import { describe, expect, it } from 'vitest';
import { isConfigError } from '../errors.ts';
import { resolveService } from './load.ts';
import { mskGroupArn, mskRegion, mskTopicArn, parseMskClusterArn, regionOfMskHost } from './msk.ts';
import type { TriggerSpec } from './types.ts';

const CLUSTER = 'arn:aws:kafka:eu-west-1:123456789012:cluster/orders/0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0-2';
const SCRAM = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:kafka-alice-AbC123';
const MSK_BROKERS = 'b-1.orders.abc123.c2.kafka.eu-west-1.amazonaws.com:9098';

function triggers(events: unknown[], o: { custom?: Record<string, unknown>; env?: NodeJS.ProcessEnv } = {}): TriggerSpec[] {
  return resolveService(
    { service: 'shop', provider: { name: 'aws' }, custom: { sluice: o.custom ?? {} }, functions: { orders: { handler: 'functions/orders.handler', events } } },
    { rootDir: '/srv', env: o.env ?? {} },
  ).triggers;
}
const problems = (events: unknown[]): string => {
  try {
    triggers(events);
  } catch (e) {
    if (isConfigError(e)) return e.message;
    throw e;
  }
  return '';
};

describe('MSK names', () => {
  it('parses a cluster ARN and derives its topic and group ARNs', () => {
    const c = parseMskClusterArn(CLUSTER)!;
    expect(c).toEqual({ arn: CLUSTER, partition: 'aws', region: 'eu-west-1', account: '123456789012', name: 'orders', uuid: '0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0-2' });
    expect(mskTopicArn(c, 'orders.v1')).toBe('arn:aws:kafka:eu-west-1:123456789012:topic/orders/0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0-2/orders.v1');
    expect(mskGroupArn(c, 'orders-processor')).toBe('arn:aws:kafka:eu-west-1:123456789012:group/orders/0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0-2/orders-processor');
    expect(parseMskClusterArn('arn:aws-cn:kafka:cn-north-1:123456789012:cluster/x/y')?.partition).toBe('aws-cn');
    expect(parseMskClusterArn('arn:aws:kafka:eu-west-1:123456789012:topic/x/y/z')).toBeUndefined();
  });

  it('reads the region from MSK broker hosts, provisioned and serverless', () => {
    expect(regionOfMskHost(MSK_BROKERS)).toBe('eu-west-1');
    expect(regionOfMskHost('boot-abc.c1.kafka-serverless.us-east-2.amazonaws.com:9098')).toBe('us-east-2');
    expect(regionOfMskHost('b-2.x.y.c3.kafka.cn-north-1.amazonaws.com.cn:9098')).toBe('cn-north-1');
    expect(regionOfMskHost('kafka.internal:9098')).toBeUndefined();
  });

  it('takes the region from the ARN, then a broker host, then AWS_REGION', () => {
    expect(mskRegion({ clusterArn: CLUSTER, brokers: ['b-1.x.y.c2.kafka.us-east-1.amazonaws.com:9098'], env: { AWS_REGION: 'ap-south-1' } })).toBe('eu-west-1');
    expect(mskRegion({ clusterArn: undefined, brokers: ['127.0.0.1:9098', 'b-1.x.y.c2.kafka.us-east-1.amazonaws.com:9098'], env: { AWS_REGION: 'ap-south-1' } })).toBe('us-east-1');
    expect(mskRegion({ clusterArn: undefined, brokers: ['127.0.0.1:9098'], env: { AWS_REGION: 'ap-south-1' } })).toBe('ap-south-1');
    expect(mskRegion({ clusterArn: undefined, brokers: ['127.0.0.1:9098'], env: { AWS_DEFAULT_REGION: 'sa-east-1' } })).toBe('sa-east-1');
    expect(mskRegion({ clusterArn: undefined, brokers: ['127.0.0.1:9098'], env: {} })).toBeUndefined();
  });
});

describe('a sluice trigger with arn', () => {
  it('reads the cluster with IAM over TLS and says aws:kafka with the ARN, as the msk event', () => {
    const [t] = triggers([{ sluice: { topic: 'orders', arn: CLUSTER, bootstrapServers: MSK_BROKERS } }]);
    expect(t!.access).toEqual({ tls: true, iam: { clusterArn: CLUSTER } });
    expect(t!.eventSourceArn).toBe(CLUSTER);
  });

  it('keeps a root CA beside IAM, and uses SASL/SCRAM or mutual TLS instead when accessConfigurations names them', () => {
    const CA = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:kafka-ca';
    const at = (accessConfigurations: Record<string, unknown>) => triggers([{ sluice: { topic: 'orders', arn: CLUSTER, bootstrapServers: MSK_BROKERS, accessConfigurations } }])[0]!.access;
    expect(at({ serverRootCaCertificate: CA })).toEqual({ tls: true, iam: { clusterArn: CLUSTER }, rootCaSecretArn: CA });
    expect(at({ saslScram512Auth: SCRAM })).toEqual({ tls: true, sasl: { mechanism: 'scram-sha-512', secretArn: SCRAM } });
    expect(at({ clientCertificateTlsAuth: SCRAM })).toEqual({ tls: true, clientCertificateSecretArn: SCRAM });
  });

  it('connects plainly to the local broker, which has no IAM', () => {
    const [t] = triggers([{ sluice: { topic: 'orders', arn: CLUSTER } }]);
    expect(t!.bootstrapServers).toBeUndefined();
    expect(t!.access).toBeUndefined();
    expect(t!.eventSourceArn).toBe(CLUSTER);
    expect(triggers([{ sluice: { topic: 'orders', arn: CLUSTER } }], { env: { KAFKA_BROKERS: MSK_BROKERS } })[0]!.access?.iam).toEqual({ clusterArn: CLUSTER });
  });

  it('refuses tls: false with IAM, and an ARN that is not a cluster\'s', () => {
    expect(problems([{ sluice: { topic: 'orders', arn: CLUSTER, bootstrapServers: MSK_BROKERS, tls: false } }])).toContain(
      'functions.orders.events[0].sluice.tls: false contradicts MSK IAM authentication',
    );
    expect(problems([{ sluice: { topic: 'orders', arn: 'arn:aws:kafka:eu-west-1:123456789012:topic/a/b/c' } }])).toContain(
      'functions.orders.events[0].sluice.arn: must be an MSK cluster ARN, arn:aws:kafka:<region>:<account>:cluster/<name>/<uuid>',
    );
  });
});

describe('an emulated msk event', () => {
  const custom = { emulateNativeEvents: true, bootstrapServers: MSK_BROKERS };
  it('uses IAM without saslScram512, as AWS does, also when its arn is a CloudFormation reference', () => {
    const [t] = triggers([{ msk: { arn: CLUSTER, topic: 'orders' } }], { custom });
    expect(t!.access).toEqual({ tls: true, iam: { clusterArn: CLUSTER } });
    expect(t!.eventSourceArn).toBe(CLUSTER);
    const [ref] = triggers([{ msk: { arn: { 'Fn::GetAtt': ['Cluster', 'Arn'] }, topic: 'orders' } }], { custom });
    expect(ref!.access).toEqual({ tls: true, iam: {} });
  });

  it('reads saslScram512 past as before, and connects plainly to the local broker', () => {
    expect(triggers([{ msk: { arn: CLUSTER, topic: 'orders', saslScram512: SCRAM } }], { custom })[0]!.access).toBeUndefined();
    expect(triggers([{ msk: { arn: CLUSTER, topic: 'orders' } }], { custom: { emulateNativeEvents: true } })[0]!.access).toBeUndefined();
  });
});
