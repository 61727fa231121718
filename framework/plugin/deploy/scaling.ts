/**
 * Pure: lag-based scaling of the poller service, like the Kafka trigger's provisioned pollers.
 * An Application Auto Scaling scalable target on the service's desired count (minTasks–maxTasks)
 * and a target-tracking policy on the OffsetLag metric the tasks write as EMF
 * (observe/emf.ts): its [Service] dimension, Maximum statistic, so the task count follows the
 * largest lag of any trigger. Application Auto Scaling acts through its service-linked role for
 * ECS (AWS-managed, only what scaling an ECS service needs): the template creates no role.
 */
import { OFFSET_LAG, SERVICE_DIMENSION } from '../../observe/emf.ts';
import { ConfigError } from '../../errors.ts';
import type { Cfn } from './iam.ts';
import type { ScalingSettings } from './schema.ts';

export const SCALING_IDS = { target: 'SluiceScalableTarget', policy: 'SluiceScalingPolicy' } as const;

/** Seconds: add tasks soon after the lag grows; remove them only once it stayed low a while. */
const SCALE_OUT_COOLDOWN_S = 60;
const SCALE_IN_COOLDOWN_S = 300;

const SERVICE_LINKED_ROLE =
  'arn:${AWS::Partition}:iam::${AWS::AccountId}:role/aws-service-role/ecs.application-autoscaling.amazonaws.com/AWSServiceRoleForApplicationAutoScaling_ECSService';

export interface ScalingInput {
  scaling: ScalingSettings;
  /** `<service>-<stage>`: the Service dimension value the tasks write. */
  serviceName: string;
  namespace: string;
  /** The ECS cluster: `{ Ref }` of the one the template creates, or the name or ARN given. */
  cluster: string | Cfn;
  /** Logical id of the ECS service. */
  serviceId: string;
}

export function scalingResources(o: ScalingInput): Record<string, Cfn> {
  return {
    [SCALING_IDS.target]: {
      Type: 'AWS::ApplicationAutoScaling::ScalableTarget',
      // The GetAtt of the service's name in ResourceId orders it after the service.
      Properties: {
        ServiceNamespace: 'ecs',
        ScalableDimension: 'ecs:service:DesiredCount',
        ResourceId: { 'Fn::Join': ['/', ['service', clusterName(o.cluster), { 'Fn::GetAtt': [o.serviceId, 'Name'] }]] },
        MinCapacity: o.scaling.minTasks,
        MaxCapacity: o.scaling.maxTasks,
        RoleARN: { 'Fn::Sub': SERVICE_LINKED_ROLE },
      },
    },
    [SCALING_IDS.policy]: {
      Type: 'AWS::ApplicationAutoScaling::ScalingPolicy',
      Properties: {
        PolicyName: `${o.serviceName}-sluice-offset-lag`,
        PolicyType: 'TargetTrackingScaling',
        ScalingTargetId: { Ref: SCALING_IDS.target },
        TargetTrackingScalingPolicyConfiguration: {
          TargetValue: o.scaling.targetLag,
          CustomizedMetricSpecification: {
            Namespace: o.namespace,
            MetricName: OFFSET_LAG,
            Dimensions: [{ Name: SERVICE_DIMENSION, Value: o.serviceName }],
            Statistic: 'Maximum',
            Unit: 'Count',
          },
          ScaleOutCooldown: SCALE_OUT_COOLDOWN_S,
          ScaleInCooldown: SCALE_IN_COOLDOWN_S,
        },
      },
    },
  };
}

/** The ResourceId wants the cluster's name: an ARN given in the settings is cut to it. */
function clusterName(cluster: string | Cfn): string | Cfn {
  return typeof cluster === 'string' && cluster.startsWith('arn:') ? cluster.slice(cluster.lastIndexOf('/') + 1) : cluster;
}

/**
 * Every task is a member of every trigger's group, so tasks beyond the largest topic's
 * partition count would hold no partition and idle: such a maxTasks is refused.
 */
export function checkMaxTasks(scaling: ScalingSettings, partitions: ReadonlyMap<string, number>): void {
  if (partitions.size === 0) return;
  const [topic, most] = [...partitions].reduce((a, b) => (b[1] > a[1] ? b : a));
  if (scaling.maxTasks > most) {
    throw new ConfigError(
      `custom.sluice.deploy.scaling.maxTasks is ${scaling.maxTasks}, but the largest trigger topic (${topic}) has ${most} partition${most === 1 ? '' : 's'}: ` +
        `each task is a member of every trigger's consumer group and a partition goes to one member, so tasks beyond ${most} would idle. ` +
        `Set maxTasks to ${most} or less, or add partitions to the topic first.`,
    );
  }
}
