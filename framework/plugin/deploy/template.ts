/**
 * Pure: the CloudFormation that runs the poller as a long-running ECS Fargate service, from the
 * resolved service, the deployed functions and the deploy settings. The package hook
 * (./package-hook.ts) only merges what this returns into the compiled template. Sluice creates
 * no AWS::Lambda::EventSourceMapping: the poller, not Lambda, reads Kafka.
 */
import { DEFAULT_HTTP_PORT, HTTP_PORT_ENV } from '../../config/http.ts';
import type { Destination, ServiceSpec, TriggerSpec } from '../../config/types.ts';
import { ConfigError } from '../../errors.ts';
import { lambdaOverheadMs } from '../../invoke/lambda-overhead.ts';
import { DESTINATION_SEND_TIMEOUT_MS } from '../../poller/delivery.ts';
import { STOP_DEADLINE_ENV } from '../../poller/stop-deadline.ts';
import { containerConfig, deployedTriggers, metricsSettings, serializeContainerConfig, TRIGGERS_ENV } from './container-config.ts';
import { executionRole, taskRole, type Cfn } from './iam.ts';
import { scalingResources } from './scaling.ts';
import type { DeploySettings } from './settings.ts';
// The task role's kafka-cluster statements (MSK IAM) and glue statements (Glue schema registries).
import { glueRegistryStatements } from './glue-iam.ts';
import { mskIamStatements } from './msk-iam.ts';

/** Logical ids of what this adds (all prefixed, so they cannot meet the framework's). */
export const IDS = {
  cluster: 'SluiceCluster',
  logGroup: 'SluiceLogGroup',
  executionRole: 'SluiceTaskExecutionRole',
  taskRole: 'SluiceTaskRole',
  taskDefinition: 'SluiceTaskDefinition',
  service: 'SluiceService',
  subnets: 'SluiceSubnets',
  securityGroups: 'SluiceSecurityGroups',
  assignPublicIp: 'SluiceAssignPublicIp',
  image: 'SluiceImage',
} as const;

export const CONTAINER_NAME = 'poller';
/** Fargate's longest stop timeout: how long a stopping task may finish in-flight invocations. */
const MAX_STOP_TIMEOUT_S = 120;
/** What the stop timeout keeps after the longest in-flight step: commits, the LeaveGroup, the exit. */
const COMMIT_AND_LEAVE_MS = 10_000;

/**
 * Seconds between ECS's SIGTERM and its SIGKILL: the longest step a stopping poller may let
 * finish (an invocation with the lambda invoker's grace and throttle retries, or a destination
 * send: no step starts after SIGTERM, so they do not add up) plus COMMIT_AND_LEAVE_MS; at least
 * 30, at most Fargate's 120. Past it the poller leaves without what still runs (stop-deadline.ts).
 */
export function stopTimeoutSeconds(triggers: readonly TriggerSpec[]): number {
  const longestMs = Math.max(...triggers.map((t) => Math.max(t.timeoutMs + lambdaOverheadMs(), t.failure.onFailure ? DESTINATION_SEND_TIMEOUT_MS : 0)));
  return Math.min(MAX_STOP_TIMEOUT_S, Math.max(30, Math.ceil((longestMs + COMMIT_AND_LEAVE_MS) / 1000)));
}

export interface DeployedFunction {
  /** The Lambda's name, `<service>-<stage>-<function>` unless the function sets `name:`. */
  lambdaName: string;
  /** Its AWS::Lambda::Function resource, e.g. `OrdersLambdaFunction`. */
  logicalId: string;
}

export interface PollerTemplateInput {
  service: ServiceSpec;
  /** By serverless.yml function key: every function with an enabled sluice trigger. */
  functions: Readonly<Record<string, DeployedFunction>>;
  settings: DeploySettings;
  /** Secrets Manager ARNs the poller may read (./secrets.ts). */
  secretArns: string[];
  /**
   * The image a deploy will run, for the execution role's pull rights, when it differs from
   * settings.image (provider.stackParameters' SluiceImage wins over the default); undefined: not
   * known when packaging. Absent: settings.image.
   */
  pullImage?: string | undefined;
}

export interface TemplateFragment {
  Parameters: Record<string, Cfn>;
  Resources: Record<string, Cfn>;
  Outputs: Record<string, Cfn>;
}

/** Undefined when no trigger is enabled: there is nothing to run. */
export function pollerTemplate(o: PollerTemplateInput): TemplateFragment | undefined {
  const { service, settings: s } = o;
  const triggers = deployedTriggers(service);
  if (triggers.length === 0) return undefined;
  const functionKeys = [...new Set(triggers.map((t) => t.functionName))];
  const deployed = (key: string): DeployedFunction => {
    const f = o.functions[key];
    if (f === undefined) throw new Error(`Function "${key}" has a sluice trigger but no Lambda resource in the compiled template.`);
    return f;
  };
  const config = containerConfig(service, Object.fromEntries(functionKeys.map((k) => [k, deployed(k).lambdaName])));
  const destinations = triggers.flatMap((t): Destination[] => (t.failure.onFailure ? [t.failure.onFailure] : []));
  const stopTimeout = stopTimeoutSeconds(triggers);
  const name = `${service.service}-${service.stage}`;
  const httpPort = service.http?.port ?? DEFAULT_HTTP_PORT;
  if (httpPort === 0) throw new ConfigError('custom.sluice.http.port: 0 (any free port) cannot be health-checked in the container; set a fixed port, e.g. 9464, or leave it out.');
  const cluster = s.cluster ?? { Ref: IDS.cluster };

  const resources: Record<string, Cfn> = {
    ...(s.cluster === undefined ? { [IDS.cluster]: { Type: 'AWS::ECS::Cluster', Properties: { Tags: tags(name) } } } : {}),
    [IDS.logGroup]: {
      Type: 'AWS::Logs::LogGroup',
      Properties: { LogGroupName: `/sluice/${name}`, RetentionInDays: s.logRetentionInDays },
    },
    [IDS.executionRole]: executionRole('pullImage' in o ? o.pullImage : s.image, IDS.logGroup),
    [IDS.taskRole]: taskRole({
      functionLogicalIds: functionKeys.map((k) => deployed(k).logicalId), secretArns: o.secretArns, destinations, kafkaCluster: mskIamStatements(triggers),
      glueRegistries: glueRegistryStatements(triggers),
    }),
    [IDS.taskDefinition]: {
      Type: 'AWS::ECS::TaskDefinition',
      Properties: {
        Family: `${name}-sluice`,
        RequiresCompatibilities: ['FARGATE'],
        NetworkMode: 'awsvpc',
        Cpu: String(s.cpu),
        Memory: String(s.memory),
        RuntimePlatform: { OperatingSystemFamily: 'LINUX', CpuArchitecture: s.architecture === 'arm64' ? 'ARM64' : 'X86_64' },
        ExecutionRoleArn: { 'Fn::GetAtt': [IDS.executionRole, 'Arn'] },
        TaskRoleArn: { 'Fn::GetAtt': [IDS.taskRole, 'Arn'] },
        ContainerDefinitions: [
          {
            Name: CONTAINER_NAME,
            Image: { Ref: IDS.image },
            Essential: true,
            // SIGTERM lets in-flight invocations finish and commit before the task stops; the
            // poller leaves the group without what still runs shortly before SIGKILL.
            StopTimeout: stopTimeout,
            LinuxParameters: { InitProcessEnabled: true },
            // The poller writes nothing to disk (no tmp dir: the Lambda invoker, no bundling).
            ReadonlyRootFilesystem: true,
            Environment: [
              { Name: 'AWS_REGION', Value: { Ref: 'AWS::Region' } },
              // S3 failure destinations are written with ExpectedBucketOwner = this account.
              { Name: 'SLUICE_AWS_ACCOUNT_ID', Value: { Ref: 'AWS::AccountId' } },
              { Name: 'SLUICE_LOG_FORMAT', Value: 'json' },
              // Kafka and schema registry credentials (accessConfigurations, schemaRegistryConfig.accessConfigs)
              // from Secrets Manager, through the task role.
              { Name: 'SLUICE_SECRETS', Value: 'secretsmanager' },
              { Name: TRIGGERS_ENV, Value: serializeContainerConfig(config) },
              { Name: HTTP_PORT_ENV, Value: String(httpPort) },
              { Name: STOP_DEADLINE_ENV, Value: String(stopTimeout * 1000) },
            ],
            // /healthz is 503 while a trigger's consumer is down or the event loop stalls; ECS
            // replaces a task that stays unhealthy. The image has node, not curl.
            HealthCheck: {
              Command: ['CMD', 'node', '-e', `fetch('http://127.0.0.1:${httpPort}/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))`],
              Interval: 15,
              Timeout: 5,
              Retries: 3,
              StartPeriod: 60,
            },
            LogConfiguration: {
              LogDriver: 'awslogs',
              Options: { 'awslogs-group': { Ref: IDS.logGroup }, 'awslogs-region': { Ref: 'AWS::Region' }, 'awslogs-stream-prefix': 'sluice' },
            },
          },
        ],
        Tags: tags(name),
      },
    },
    [IDS.service]: {
      Type: 'AWS::ECS::Service',
      Properties: {
        Cluster: cluster,
        LaunchType: 'FARGATE',
        // With scaling, Application Auto Scaling owns the count: a deploy must not reset it.
        ...(s.scaling ? {} : { DesiredCount: s.desiredCount }),
        TaskDefinition: { Ref: IDS.taskDefinition },
        NetworkConfiguration: {
          AwsvpcConfiguration: {
            Subnets: { Ref: IDS.subnets },
            SecurityGroups: { Ref: IDS.securityGroups },
            AssignPublicIp: { Ref: IDS.assignPublicIp },
          },
        },
        // A task that cannot start (no image, brokers unreachable) fails the deploy and rolls it back.
        DeploymentConfiguration: { MinimumHealthyPercent: 100, MaximumPercent: 200, DeploymentCircuitBreaker: { Enable: true, Rollback: true } },
        PropagateTags: 'TASK_DEFINITION',
        Tags: tags(name),
      },
    },
  };

  if (s.scaling) {
    Object.assign(resources, scalingResources({ scaling: s.scaling, serviceName: name, namespace: metricsSettings(service).namespace, cluster, serviceId: IDS.service }));
  }

  return {
    Parameters: {
      [IDS.image]: { ...parameter('String', "The Sluice poller's container image (custom.sluice.deploy.image)", s.image), MinLength: 1 },
      [IDS.subnets]: parameter('List<AWS::EC2::Subnet::Id>', "Subnets of the Sluice poller's tasks (custom.sluice.deploy.subnets)", s.subnets?.join(',')),
      [IDS.securityGroups]: parameter(
        'List<AWS::EC2::SecurityGroup::Id>',
        "Security groups of the Sluice poller's tasks (custom.sluice.deploy.securityGroups)",
        s.securityGroups?.join(','),
      ),
      [IDS.assignPublicIp]: {
        ...parameter('String', 'Whether the poller tasks get a public IP (custom.sluice.deploy.assignPublicIp)', s.assignPublicIp ? 'ENABLED' : 'DISABLED'),
        AllowedValues: ['ENABLED', 'DISABLED'],
      },
    },
    Resources: resources,
    Outputs: {
      SluiceServiceName: { Description: "The Sluice poller's ECS service", Value: { 'Fn::GetAtt': [IDS.service, 'Name'] } },
      SluiceClusterName: { Description: 'The ECS cluster it runs in', Value: cluster },
      SluiceLogGroupName: { Description: "The poller's logs", Value: { Ref: IDS.logGroup } },
    },
  };
}

function parameter(type: string, description: string, defaultValue: string | undefined): Cfn {
  return { Type: type, Description: description, ...(defaultValue === undefined ? {} : { Default: defaultValue }) };
}

function tags(name: string): Cfn[] {
  return [{ Key: 'sluice:service', Value: name }];
}
