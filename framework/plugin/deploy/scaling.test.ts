import { describe, expect, it } from 'vitest';
import { resolveService } from '../../config/load.ts';
import { isConfigError } from '../../errors.ts';
import { checkMaxTasks, SCALING_IDS } from './scaling.ts';
import { deploySettings } from './settings.ts';
import { IDS, pollerTemplate } from './template.ts';

const service = (custom: Record<string, unknown> = {}) =>
  resolveService(
    { service: 'shop', provider: { name: 'aws', stage: 'prod' }, custom: { sluice: { bootstrapServers: 'b-1.kafka:9092', ...custom } }, functions: { orders: { handler: 'f.handler', events: [{ sluice: { topic: 'orders' } }] } } },
    { rootDir: '/srv/shop', env: {} },
  );
const template = (deploy: Record<string, unknown>, custom: Record<string, unknown> = {}) =>
  pollerTemplate({ service: service(custom), functions: { orders: { lambdaName: 'shop-prod-orders', logicalId: 'OrdersLambdaFunction' } }, settings: deploySettings({ image: 'example/sluice:1', ...deploy })!, secretArns: [] })!;
const scaling = { minTasks: 1, maxTasks: 6, targetLag: 1000 };
const resource = (f: ReturnType<typeof template>, id: string) => f.Resources[id] as { Type: string; DependsOn?: string; Properties: Record<string, unknown> };

describe('scaling', () => {
  it('adds a scalable target on the service count and a target-tracking policy on OffsetLag (Maximum, the Service dimension), and no desired count', () => {
    const f = template({ scaling }, { metrics: { namespace: 'Shop/Sluice' } });
    expect(resource(f, SCALING_IDS.target)).toEqual({
      Type: 'AWS::ApplicationAutoScaling::ScalableTarget',
      Properties: {
        ServiceNamespace: 'ecs',
        ScalableDimension: 'ecs:service:DesiredCount',
        ResourceId: { 'Fn::Join': ['/', ['service', { Ref: IDS.cluster }, { 'Fn::GetAtt': [IDS.service, 'Name'] }]] },
        MinCapacity: 1,
        MaxCapacity: 6,
        RoleARN: { 'Fn::Sub': 'arn:${AWS::Partition}:iam::${AWS::AccountId}:role/aws-service-role/ecs.application-autoscaling.amazonaws.com/AWSServiceRoleForApplicationAutoScaling_ECSService' },
      },
    });
    expect(resource(f, SCALING_IDS.policy).Properties).toEqual({
      PolicyName: 'shop-prod-sluice-offset-lag',
      PolicyType: 'TargetTrackingScaling',
      ScalingTargetId: { Ref: SCALING_IDS.target },
      TargetTrackingScalingPolicyConfiguration: {
        TargetValue: 1000,
        CustomizedMetricSpecification: { Namespace: 'Shop/Sluice', MetricName: 'OffsetLag', Dimensions: [{ Name: 'Service', Value: 'shop-prod' }], Statistic: 'Maximum', Unit: 'Count' },
        ScaleOutCooldown: 60,
        ScaleInCooldown: 300,
      },
    });
    expect(resource(f, IDS.service).Properties).not.toHaveProperty('DesiredCount');
    // No role of its own: the service-linked one.
    expect(Object.values(f.Resources).filter((r) => (r as { Type: string }).Type === 'AWS::IAM::Role')).toHaveLength(2);
  });

  it('uses the default namespace, and the name of a cluster given by ARN', () => {
    const f = template({ scaling, cluster: 'arn:aws:ecs:eu-west-1:123456789012:cluster/shared' });
    expect((resource(f, SCALING_IDS.policy).Properties.TargetTrackingScalingPolicyConfiguration as { CustomizedMetricSpecification: { Namespace: string } }).CustomizedMetricSpecification.Namespace).toBe('Sluice');
    expect((resource(f, SCALING_IDS.target).Properties.ResourceId as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1][1]).toBe('shared');
  });

  it('leaves the template as it was without scaling', () => {
    const f = template({});
    expect(f.Resources[SCALING_IDS.target]).toBeUndefined();
    expect(f.Resources[SCALING_IDS.policy]).toBeUndefined();
    expect(resource(f, IDS.service).Properties.DesiredCount).toBe(1);
  });

  it('refuses maxTasks below minTasks, beside a desiredCount, or without all three settings', () => {
    expect(() => deploySettings({ image: 'i', scaling: { minTasks: 3, maxTasks: 2, targetLag: 10 } })).toThrow(/scaling: maxTasks 2 is below minTasks 3; raise maxTasks or lower minTasks\./);
    expect(() => deploySettings({ image: 'i', desiredCount: 2, scaling })).toThrow(/desiredCount and scaling are both set\. .*remove desiredCount\./);
    expect(() => deploySettings({ image: 'i', scaling: { minTasks: 1, maxTasks: 2 } })).toThrow(/custom\.sluice\.deploy\.scaling: missing required property "targetLag"/);
  });

  it('refuses maxTasks above the largest topic partition count, naming both numbers', () => {
    const counts = new Map([['orders', 3], ['audit', 4]]);
    expect(() => checkMaxTasks({ ...scaling, maxTasks: 4 }, counts)).not.toThrow();
    try {
      checkMaxTasks({ ...scaling, maxTasks: 5 }, counts);
      expect.unreachable();
    } catch (e) {
      expect(isConfigError(e)).toBe(true);
      expect((e as Error).message).toBe(
        "custom.sluice.deploy.scaling.maxTasks is 5, but the largest trigger topic (audit) has 4 partitions: each task is a member of every trigger's consumer group " +
          'and a partition goes to one member, so tasks beyond 4 would idle. Set maxTasks to 4 or less, or add partitions to the topic first.',
      );
    }
  });
});
