import { describe, expect, it } from 'vitest';
import { resolveService } from '../../config/load.ts';
import { isConfigError } from '../../errors.ts';
import type { Statement } from './iam.ts';
import { deploySettings } from './settings.ts';
import { IDS, pollerTemplate } from './template.ts';

const CLUSTER = 'arn:aws:kafka:eu-west-1:123456789012:cluster/shop/0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0-2';
const BROKERS = 'b-1.shop.abc123.c2.kafka.eu-west-1.amazonaws.com:9098,b-2.shop.abc123.c2.kafka.eu-west-1.amazonaws.com:9098';
const ARN = (kind: 'topic' | 'group', name: string) => `arn:aws:kafka:eu-west-1:123456789012:${kind}/shop/0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0-2/${name}`;

function taskRoleStatements(events: Record<string, unknown[]>): Statement[] {
  const functions = Object.fromEntries(Object.entries(events).map(([name, ev]) => [name, { handler: `functions/${name}.handler`, events: ev }]));
  const service = resolveService({ service: 'shop', provider: { name: 'aws', stage: 'prod' }, custom: { sluice: { bootstrapServers: BROKERS } }, functions }, { rootDir: '/srv/shop', env: {} });
  const deployed = Object.fromEntries(Object.keys(events).map((k) => [k, { lambdaName: `shop-prod-${k}`, logicalId: `${k[0]!.toUpperCase()}${k.slice(1)}LambdaFunction` }]));
  const f = pollerTemplate({ service, functions: deployed, settings: deploySettings({ image: 'example/sluice:1' })!, secretArns: [] })!;
  const role = f.Resources[IDS.taskRole] as { Properties: { Policies: Array<{ PolicyDocument: { Statement: Statement[] } }> } };
  return role.Properties.Policies.flatMap((p) => p.PolicyDocument.Statement);
}
const kafkaCluster = (statements: Statement[]) => statements.filter((s) => s.Action.some((a) => a.startsWith('kafka-cluster:')));

const CONSUME = [
  { Sid: 'MskConnect', Effect: 'Allow', Action: ['kafka-cluster:Connect', 'kafka-cluster:DescribeCluster'], Resource: [CLUSTER] },
  { Sid: 'MskReadTopics', Effect: 'Allow', Action: ['kafka-cluster:DescribeTopic', 'kafka-cluster:ReadData'], Resource: [ARN('topic', 'orders')] },
  { Sid: 'MskConsumerGroups', Effect: 'Allow', Action: ['kafka-cluster:AlterGroup', 'kafka-cluster:DescribeGroup'], Resource: [ARN('group', 'orders-processor')] },
];

describe('the task role for an MSK trigger with IAM', () => {
  it('may connect to the cluster, read the topic and use the group: exactly, and nothing wider', () => {
    const statements = taskRoleStatements({ orders: [{ sluice: { topic: 'orders', arn: CLUSTER, consumerGroupId: 'orders-processor' } }] });
    expect(kafkaCluster(statements)).toEqual(CONSUME);
    expect(statements.filter((s) => !kafkaCluster(statements).includes(s)).map((s) => s.Sid)).toEqual(['InvokeTriggeredFunctions']);
    expect(JSON.stringify(statements)).not.toContain('*');
  });

  it('with a kafka:// destination, may also write that topic (idempotently, as the producer does), and nothing else', () => {
    const statements = taskRoleStatements({
      orders: [{ sluice: { topic: 'orders', arn: CLUSTER, consumerGroupId: 'orders-processor', maximumRetryAttempts: 2, destinationConfig: { onFailure: { destination: 'kafka://orders-failed' } } } }],
    });
    expect(kafkaCluster(statements)).toEqual([
      ...CONSUME,
      {
        Sid: 'MskWriteDestinations', Effect: 'Allow',
        Action: ['kafka-cluster:DescribeTopic', 'kafka-cluster:DescribeTopicDynamicConfiguration', 'kafka-cluster:WriteData'],
        Resource: [ARN('topic', 'orders-failed')],
      },
      { Sid: 'MskIdempotentWrites', Effect: 'Allow', Action: ['kafka-cluster:WriteDataIdempotently'], Resource: [CLUSTER] },
    ]);
    expect(JSON.stringify(statements)).not.toContain('*');
  });

  it('lists each cluster once and every trigger\'s topic and group; none for triggers without IAM or disabled', () => {
    const statements = taskRoleStatements({
      orders: [{ sluice: { topic: 'orders', arn: CLUSTER } }, { sluice: { topic: 'orders-eu', arn: CLUSTER } }],
      legacy: [{ sluice: { topic: 'legacy', arn: CLUSTER, accessConfigurations: { saslScram512Auth: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:kafka-AbCdEf' } } }],
      plain: [{ sluice: { topic: 'plain' } }],
      off: [{ sluice: { topic: 'off', arn: CLUSTER, enabled: false } }],
    });
    const byId = Object.fromEntries(kafkaCluster(statements).map((s) => [s.Sid, s.Resource]));
    expect(byId).toEqual({
      MskConnect: [CLUSTER],
      MskReadTopics: [ARN('topic', 'orders'), ARN('topic', 'orders-eu')],
      MskConsumerGroups: [ARN('group', 'sluice-shop-orders-orders'), ARN('group', 'sluice-shop-orders-orders-eu')],
    });
  });

  it('refuses a group id with "*", which IAM would read as a wildcard', () => {
    const e = (() => {
      try {
        taskRoleStatements({ orders: [{ sluice: { topic: 'orders', arn: CLUSTER, consumerGroupId: 'orders-*' } }] });
      } catch (x) {
        return x as Error;
      }
      return undefined;
    })();
    expect(isConfigError(e)).toBe(true);
    expect(e?.message).toMatch(/^functions\.orders\.events\[0\]\.sluice\.consumerGroupId: "orders-\*" holds "\*", which IAM reads as a wildcard/);
  });
});
