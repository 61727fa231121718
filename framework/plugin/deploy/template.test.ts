import { describe, expect, it } from 'vitest';
import { resolveService } from '../../config/load.ts';
import type { ServiceSpec } from '../../config/types.ts';
import { isConfigError } from '../../errors.ts';
import { parseContainerConfig, TRIGGERS_ENV } from './container-config.ts';
import { ecrRepositoryArn, type Statement } from './iam.ts';
import { declaredSecretArns } from './secrets.ts';
import { deploySettings, type DeploySettings } from './settings.ts';
import { IDS, pollerTemplate, type DeployedFunction, type TemplateFragment } from './template.ts';

const BROKERS = 'b-1.kafka:9092,b-2.kafka:9092';
const settings = (raw: Record<string, unknown> = {}): DeploySettings => deploySettings({ image: 'example/sluice:1', ...raw })!;

function spec(functions: Record<string, unknown>, custom: Record<string, unknown> = { bootstrapServers: BROKERS }): ServiceSpec {
  return resolveService({ service: 'shop', provider: { name: 'aws', stage: 'prod' }, custom: { sluice: custom }, functions }, { rootDir: '/srv/shop', env: {} });
}

const SHOP = spec({
  orders: { handler: 'functions/orders.handler', timeout: 60, events: [{ sluice: { topic: 'orders' } }, { sluice: { topic: 'orders-eu' } }] },
  payments: { handler: 'functions/payments.handler', environment: { API_KEY: 'secret-ish' }, events: [{ sluice: { topic: 'payments' } }] },
  archive: { handler: 'functions/archive.handler', events: [{ sluice: { topic: 'archive', enabled: false } }] },
  http: { handler: 'functions/http.handler', events: [{ httpApi: 'GET /' }] },
});

const deployed = (...keys: string[]): Record<string, DeployedFunction> =>
  Object.fromEntries(keys.map((k) => [k, { lambdaName: `shop-prod-${k}`, logicalId: `${k[0]!.toUpperCase()}${k.slice(1)}LambdaFunction` }]));

function build(service = SHOP, s = settings(), secretArns: string[] = []): TemplateFragment {
  const fragment = pollerTemplate({ service, functions: deployed('orders', 'payments', 'archive'), settings: s, secretArns });
  if (fragment === undefined) throw new Error('no fragment');
  return fragment;
}
type Props = Record<string, unknown>;
const props = (f: TemplateFragment, id: string) => (f.Resources[id] as { Properties: Props }).Properties;
const statements = (f: TemplateFragment, id: string): Statement[] =>
  (props(f, id).Policies as Array<{ PolicyDocument: { Statement: Statement[] } }>)[0]!.PolicyDocument.Statement;
const container = (f: TemplateFragment) => (props(f, IDS.taskDefinition).ContainerDefinitions as Props[])[0]!;
const env = (f: TemplateFragment, name: string) => (container(f).Environment as Array<{ Name: string; Value: unknown }>).find((e) => e.Name === name)?.Value;

describe('pollerTemplate', () => {
  it('adds an ECS Fargate service with its cluster, task definition, log group and roles, and no event source mapping', () => {
    const f = build();
    expect(Object.fromEntries(Object.entries(f.Resources).map(([id, r]) => [id, (r as { Type: string }).Type]))).toEqual({
      SluiceCluster: 'AWS::ECS::Cluster',
      SluiceLogGroup: 'AWS::Logs::LogGroup',
      SluiceTaskExecutionRole: 'AWS::IAM::Role',
      SluiceTaskRole: 'AWS::IAM::Role',
      SluiceTaskDefinition: 'AWS::ECS::TaskDefinition',
      SluiceService: 'AWS::ECS::Service',
    });
    expect(props(f, IDS.taskDefinition)).toMatchObject({ Family: 'shop-prod-sluice', RequiresCompatibilities: ['FARGATE'], NetworkMode: 'awsvpc', Cpu: '256', Memory: '512' });
    expect(props(f, IDS.service)).toMatchObject({ Cluster: { Ref: 'SluiceCluster' }, LaunchType: 'FARGATE', DesiredCount: 1 });
    expect(props(f, IDS.logGroup)).toEqual({ LogGroupName: '/sluice/shop-prod', RetentionInDays: 14 });
    expect(container(f)).toMatchObject({ Image: { Ref: 'SluiceImage' }, Essential: true, StopTimeout: 77 });
    expect(f.Parameters.SluiceImage).toEqual({ Type: 'String', Description: "The Sluice poller's container image (custom.sluice.deploy.image)", Default: 'example/sluice:1', MinLength: 1 });
  });

  it('leaves emulated native kafka and msk events to their event source mappings: the service polls only sluice triggers', () => {
    const native = { kafka: { accessConfigurations: { saslScram512Auth: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:k' }, topic: 'audit', bootstrapServers: ['b-1.kafka:9092'] } };
    const msk = { msk: { arn: 'arn:aws:kafka:eu-west-1:123456789012:cluster/c/abc', topic: 'clicks' } };
    const mixed = spec({ orders: { handler: 'functions/orders.handler', events: [{ sluice: { topic: 'orders' } }, native, msk] } }, { bootstrapServers: BROKERS, emulateNativeEvents: true });
    expect(mixed.triggers.map((t) => t.topic)).toEqual(['orders', 'audit', 'clicks']); // all three run locally
    const config = parseContainerConfig(env(build(mixed), TRIGGERS_ENV) as string);
    expect(config.triggers.map((t) => t.topic)).toEqual(['orders']);
    const onlyNative = spec({ orders: { handler: 'functions/orders.handler', events: [native, msk] } }, { bootstrapServers: BROKERS, emulateNativeEvents: true });
    expect(pollerTemplate({ service: onlyNative, functions: deployed('orders'), settings: settings(), secretArns: [] })).toBeUndefined();
  });

  it('lets the task role invoke exactly the functions with enabled triggers, once each, and nothing else', () => {
    expect(statements(build(), IDS.taskRole)).toEqual([
      {
        Sid: 'InvokeTriggeredFunctions',
        Effect: 'Allow',
        Action: ['lambda:InvokeFunction'],
        Resource: [{ 'Fn::GetAtt': ['OrdersLambdaFunction', 'Arn'] }, { 'Fn::GetAtt': ['PaymentsLambdaFunction', 'Arn'] }],
      },
    ]);
  });

  it('adds a secretsmanager statement for exactly the declared secrets, only when there are some', () => {
    const arn = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:kafka-AbCdEf';
    expect(statements(build(SHOP, settings(), [arn]), IDS.taskRole)[1]).toEqual({
      Sid: 'ReadDeclaredSecrets', Effect: 'Allow', Action: ['secretsmanager:GetSecretValue'], Resource: [arn],
    });
    expect(JSON.stringify(statements(build(), IDS.taskRole))).not.toContain('secretsmanager');
  });

  it("reads exactly the secrets the triggers' accessConfigurations declare", () => {
    const scram = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:kafka-alice';
    const service = spec({ a: { handler: 'a.handler', events: [{ sluice: { topic: 'a', accessConfigurations: { saslScram512Auth: scram } } }] } });
    const f = pollerTemplate({ service, functions: deployed('a'), settings: settings(), secretArns: declaredSecretArns(service.triggers) })!;
    expect(statements(f, IDS.taskRole)[1]).toEqual({ Sid: 'ReadDeclaredSecrets', Effect: 'Allow', Action: ['secretsmanager:GetSecretValue'], Resource: [`${scram}-??????`] });
  });

  it('lets the task role write to exactly the SQS, SNS and S3 on-failure destinations', () => {
    const onFailure = (destination: string) => ({ maximumRetryAttempts: 2, destinationConfig: { onFailure: { destination } } });
    const service = spec({
      a: { handler: 'a.handler', events: [{ sluice: { topic: 'a', ...onFailure('arn:aws:sqs:eu-west-1:123456789012:dlq') } }] },
      b: { handler: 'b.handler', events: [{ sluice: { topic: 'b', ...onFailure('arn:aws:sns:eu-west-1:123456789012:failed') } }] },
      c: { handler: 'c.handler', events: [{ sluice: { topic: 'c', ...onFailure('arn:aws:s3:::failed-records') } }] },
      d: { handler: 'd.handler', events: [{ sluice: { topic: 'd', ...onFailure('kafka://d-failed') } }] },
    });
    const f = pollerTemplate({ service, functions: deployed('a', 'b', 'c', 'd'), settings: settings(), secretArns: [] })!;
    expect(statements(f, IDS.taskRole).slice(1)).toEqual([
      { Sid: 'SendToFailureQueues', Effect: 'Allow', Action: ['sqs:GetQueueUrl', 'sqs:SendMessage'], Resource: ['arn:aws:sqs:eu-west-1:123456789012:dlq'] },
      { Sid: 'PublishToFailureTopics', Effect: 'Allow', Action: ['sns:Publish'], Resource: ['arn:aws:sns:eu-west-1:123456789012:failed'] },
      { Sid: 'WriteToFailureBuckets', Effect: 'Allow', Action: ['s3:PutObject'], Resource: ['arn:aws:s3:::failed-records/*'] },
    ]);
  });

  it('passes the enabled triggers in SLUICE_TRIGGERS with the deployed Lambda names and without the functions\' environment', () => {
    const config = parseContainerConfig(env(build(), TRIGGERS_ENV) as string);
    expect(config).toMatchObject({ version: 1, invoker: 'lambda', service: 'shop', stage: 'prod' });
    expect(config.functionNames).toEqual({ orders: 'shop-prod-orders', payments: 'shop-prod-payments' });
    expect(config.triggers.map((t) => [t.functionName, t.topic, t.bootstrapServers])).toEqual([
      ['orders', 'orders', ['b-1.kafka:9092', 'b-2.kafka:9092']],
      ['orders', 'orders-eu', ['b-1.kafka:9092', 'b-2.kafka:9092']],
      ['payments', 'payments', ['b-1.kafka:9092', 'b-2.kafka:9092']],
    ]);
    expect(config.triggers.map((t) => t.consumerGroupId)).toEqual(SHOP.triggers.slice(0, 3).map((t) => t.consumerGroupId));
    expect(env(build(), TRIGGERS_ENV)).not.toContain('secret-ish');
    expect(env(build(), 'SLUICE_LOG_FORMAT')).toBe('json');
    expect(env(build(), 'SLUICE_SECRETS')).toBe('secretsmanager');
    expect(env(build(), 'AWS_REGION')).toEqual({ Ref: 'AWS::Region' });
  });

  it('runs the container with a read-only root filesystem, its S3 writes pinned to this account, and both roles assumable only for this account', () => {
    const t = build();
    expect((props(t, IDS.taskDefinition).ContainerDefinitions as Array<Record<string, unknown>>)[0]!.ReadonlyRootFilesystem).toBe(true);
    expect(env(t, 'SLUICE_AWS_ACCOUNT_ID')).toEqual({ Ref: 'AWS::AccountId' });
    for (const id of [IDS.taskRole, IDS.executionRole]) {
      const trust = (props(t, id).AssumeRolePolicyDocument as { Statement: Array<{ Condition: Record<string, Record<string, unknown>> }> }).Statement[0]!;
      expect(trust.Condition.StringEquals).toEqual({ 'aws:SourceAccount': { Ref: 'AWS::AccountId' } });
      expect(trust.Condition.ArnLike!['aws:SourceArn']).toBeDefined();
    }
  });

  it('health-checks the container on /healthz of the health server port it sets', () => {
    const check = (service: typeof SHOP) => (props(build(service), IDS.taskDefinition).ContainerDefinitions as Array<Record<string, { Command: string[] }>>)[0]!.HealthCheck!;
    expect(env(build(), 'SLUICE_HTTP_PORT')).toBe('9464');
    expect(check(SHOP)).toMatchObject({ Interval: 15, Timeout: 5, Retries: 3, StartPeriod: 60 });
    expect(check(SHOP).Command.join(' ')).toMatch(/^CMD node -e fetch\('http:\/\/127\.0\.0\.1:9464\/healthz'\)/);
    const custom = { ...SHOP, http: { port: 8088 } };
    expect(env(build(custom), 'SLUICE_HTTP_PORT')).toBe('8088');
    expect(check(custom).Command.join(' ')).toContain('127.0.0.1:8088/healthz');
    expect(() => build({ ...SHOP, http: { port: 0 } })).toThrow('custom.sluice.http.port: 0 (any free port) cannot be health-checked in the container');
  });

  it('runs in an existing cluster when one is named, and sizes, counts and networking come from the settings', () => {
    const f = build(SHOP, settings({ cluster: 'shared', cpu: 1024, memory: 2048, architecture: 'arm64', desiredCount: 3, subnets: ['subnet-0a1b2c3d', 'subnet-0123456789abcdef0'], securityGroups: ['sg-0e3f4a5b'], assignPublicIp: true, logRetentionInDays: 90 }));
    expect(f.Resources[IDS.cluster]).toBeUndefined();
    expect(props(f, IDS.service)).toMatchObject({ Cluster: 'shared', DesiredCount: 3 });
    expect(props(f, IDS.taskDefinition)).toMatchObject({ Cpu: '1024', Memory: '2048', RuntimePlatform: { CpuArchitecture: 'ARM64' } });
    expect(f.Parameters).toMatchObject({
      SluiceSubnets: { Type: 'List<AWS::EC2::Subnet::Id>', Default: 'subnet-0a1b2c3d,subnet-0123456789abcdef0' },
      SluiceSecurityGroups: { Type: 'List<AWS::EC2::SecurityGroup::Id>', Default: 'sg-0e3f4a5b' },
      SluiceAssignPublicIp: { Default: 'ENABLED', AllowedValues: ['ENABLED', 'DISABLED'] },
    });
    expect(f.Outputs.SluiceClusterName).toMatchObject({ Value: 'shared' });
    expect(props(f, IDS.logGroup).RetentionInDays).toBe(90);
  });

  it('leaves networking parameters without a default when the settings give none', () => {
    const f = build();
    expect(f.Parameters.SluiceSubnets).not.toHaveProperty('Default');
    expect(f.Parameters.SluiceSecurityGroups).not.toHaveProperty('Default');
    expect(f.Parameters.SluiceAssignPublicIp).toMatchObject({ Default: 'DISABLED' });
  });

  it('gives the execution role ECR pull rights on exactly the image repository, and none for a public image', () => {
    const ecr = build(SHOP, settings({ image: '123456789012.dkr.ecr.eu-west-1.amazonaws.com/team/sluice:1.2@sha256:' + 'a'.repeat(64) }));
    expect(statements(ecr, IDS.executionRole).map((s) => [s.Sid, s.Resource])).toEqual([
      ['WriteLogs', [{ 'Fn::GetAtt': ['SluiceLogGroup', 'Arn'] }]],
      ['EcrLogin', ['*']],
      ['PullImage', [{ 'Fn::Sub': 'arn:${AWS::Partition}:ecr:eu-west-1:123456789012:repository/team/sluice' }]],
    ]);
    expect(statements(build(), IDS.executionRole).map((s) => s.Sid)).toEqual(['WriteLogs']);
  });

  it('scopes the pull rights to an ECR dual-stack image (<account>.dkr-ecr.<region>.on.aws) as to any ECR image', () => {
    expect(ecrRepositoryArn('123456789012.dkr-ecr.us-east-1.on.aws/team/sluice:1.0')).toEqual({ 'Fn::Sub': 'arn:${AWS::Partition}:ecr:us-east-1:123456789012:repository/team/sluice' });
    expect(ecrRepositoryArn('123456789012.dkr-ecr-fips.us-gov-west-1.on.aws/sluice@sha256:' + 'b'.repeat(64))).toEqual({ 'Fn::Sub': 'arn:${AWS::Partition}:ecr:us-gov-west-1:123456789012:repository/sluice' });
    expect(ecrRepositoryArn('public.ecr.aws/team/sluice:1.0')).toBeUndefined();
  });

  it('scopes the pull rights to the image the deploy runs (a stack parameter\'s) over the default, and to the account\'s repositories when that is unknown', () => {
    const s = settings({ image: '111111111111.dkr.ecr.eu-west-1.amazonaws.com/sluice:1.0' });
    const pull = (pullImage: string | undefined) => statements(pollerTemplate({ service: SHOP, functions: deployed('orders', 'payments', 'archive'), settings: s, secretArns: [], pullImage })!, IDS.executionRole).find((x) => x.Sid === 'PullImage')?.Resource;
    expect(pull('222222222222.dkr.ecr.eu-central-1.amazonaws.com/sluice-staging:2.0')).toEqual([{ 'Fn::Sub': 'arn:${AWS::Partition}:ecr:eu-central-1:222222222222:repository/sluice-staging' }]);
    expect(pull(undefined)).toEqual([{ 'Fn::Sub': 'arn:${AWS::Partition}:ecr:${AWS::Region}:${AWS::AccountId}:repository/*' }]);
  });

  it('packages without an image: SluiceImage has no default, and the pull rights cover this account\'s repositories in the stack\'s region', () => {
    const f = build(SHOP, { ...settings(), image: undefined });
    expect(f.Parameters.SluiceImage).not.toHaveProperty('Default');
    expect(container(f).Image).toEqual({ Ref: 'SluiceImage' });
    expect(statements(f, IDS.executionRole).map((s) => [s.Sid, s.Resource])).toEqual([
      ['WriteLogs', [{ 'Fn::GetAtt': ['SluiceLogGroup', 'Arn'] }]],
      ['EcrLogin', ['*']],
      ['PullImage', [{ 'Fn::Sub': 'arn:${AWS::Partition}:ecr:${AWS::Region}:${AWS::AccountId}:repository/*' }]],
    ]);
  });

  it('keeps the stop timeout between 30 s and Fargate\'s 120 s: the longest invocation with the lambda invoker\'s 6.5 s, or a destination send, plus 10 s; and tells the poller', () => {
    const one = (t: number, sluice: Record<string, unknown> = {}) => pollerTemplate({ service: spec({ f: { handler: 'f.handler', timeout: t, events: [{ sluice: { topic: 't', maxPollIntervalMs: 3_600_000, ...sluice } }] } }), functions: deployed('f'), settings: settings(), secretArns: [] })!;
    expect(container(one(3)).StopTimeout).toBe(30);
    expect(container(one(60)).StopTimeout).toBe(77);
    expect(container(one(100)).StopTimeout).toBe(117);
    expect(container(one(900)).StopTimeout).toBe(120);
    // A destination send (at most 30 s) can be what runs at SIGTERM instead of an invocation.
    expect(container(one(3, { maximumRetryAttempts: 2, destinationConfig: { onFailure: { destination: 'kafka://failed' } } })).StopTimeout).toBe(40);
    const env = (t: number) => (container(one(t)).Environment as Array<{ Name: string; Value: unknown }>).find((e) => e.Name === 'SLUICE_STOP_DEADLINE_MS')?.Value;
    expect([env(3), env(100), env(900)]).toEqual(['30000', '117000', '120000']);
  });

  it('adds nothing when no trigger is enabled', () => {
    const service = spec({ a: { handler: 'a.handler', events: [{ sluice: { topic: 'a', enabled: false } }] } });
    expect(pollerTemplate({ service, functions: deployed('a'), settings: settings(), secretArns: [] })).toBeUndefined();
  });

  it('refuses a trigger without brokers, naming it and the settings that give them', () => {
    const service = spec({ a: { handler: 'a.handler', events: [{ sluice: { topic: 'a' } }] } }, {});
    try {
      pollerTemplate({ service, functions: deployed('a'), settings: settings(), secretArns: [] });
      expect.unreachable();
    } catch (e) {
      expect(isConfigError(e)).toBe(true);
      expect((e as Error).message).toBe(
        'functions.a.events[0].sluice: no brokers to deploy with (in AWS there is no local Kafka). Set bootstrapServers on the trigger or custom.sluice.bootstrapServers, or KAFKA_BROKERS while packaging.',
      );
    }
  });
});
