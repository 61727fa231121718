/**
 * `custom.sluice.deploy`: how `serverless package` runs the poller in AWS (ECS Fargate). The
 * JSON schema is registered with the framework as part of `custom.sluice`
 * (framework/config/schema.ts); defaults and the rules between values are applied in
 * ./settings.ts. As elsewhere, every `description` is the "how to fix" sentence of the message.
 */

const range = (min: number, max: number, step: number) => Array.from({ length: (max - min) / step + 1 }, (_, i) => min + i * step);

/** Fargate's task sizes (AWS's table): CPU units → the memory sizes (MiB) each allows. */
export const FARGATE_SIZES: Readonly<Record<number, readonly number[]>> = {
  256: [512, 1024, 2048],
  512: range(1024, 4096, 1024),
  1024: range(2048, 8192, 1024),
  2048: range(4096, 16384, 1024),
  4096: range(8192, 30720, 1024),
  8192: range(16384, 61440, 4096),
  16384: range(32768, 122880, 8192),
};

/** CloudWatch Logs' allowed retention periods, in days. */
export const LOG_RETENTION_DAYS = [1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653] as const;

export const DEPLOY_DEFAULTS = {
  enabled: true,
  cpu: 256,
  memory: 512,
  architecture: 'x86_64',
  desiredCount: 1,
  logRetentionInDays: 14,
  assignPublicIp: false,
} as const;

export const sluiceDeploySchema = {
  description:
    'custom.sluice.deploy says how `serverless package` runs the poller on ECS Fargate, ' +
    'e.g. "deploy: { image: 123456789012.dkr.ecr.us-east-1.amazonaws.com/sluice:1.0, subnets: [subnet-0abc1234], securityGroups: [sg-0abc1234] }".',
  type: 'object',
  properties: {
    enabled: {
      description: 'enabled is true or false: false leaves the poller service out of the template (deploy it yourself); default true.',
      type: 'boolean',
      default: DEPLOY_DEFAULTS.enabled,
    },
    image: {
      description:
        "image is the poller's container image (docs/deploying.md, \"The poller's image\"), e.g. " +
        '123456789012.dkr.ecr.us-east-1.amazonaws.com/sluice:1.0; the default of the SluiceImage stack parameter. ' +
        'Without it, package still works and a deploy needs SluiceImage in provider.stackParameters.',
      type: 'string',
      minLength: 1,
    },
    cpu: {
      description: `cpu is the task's CPU in units (1024 = 1 vCPU): one of ${Object.keys(FARGATE_SIZES).join(', ')}; default ${DEPLOY_DEFAULTS.cpu}.`,
      type: 'integer',
      enum: Object.keys(FARGATE_SIZES).map(Number),
      default: DEPLOY_DEFAULTS.cpu,
    },
    memory: {
      description: `memory is the task's memory in MiB, a size Fargate allows with the cpu (512–2048 for 256 CPU units); default ${DEPLOY_DEFAULTS.memory}.`,
      type: 'integer',
      minimum: 512,
      maximum: 122880,
      default: DEPLOY_DEFAULTS.memory,
    },
    architecture: {
      description: 'architecture is the CPU architecture of the image: x86_64 or arm64 (Graviton, about 20% cheaper); default x86_64.',
      enum: ['x86_64', 'arm64'],
      default: DEPLOY_DEFAULTS.architecture,
    },
    desiredCount: {
      description:
        'desiredCount is how many poller tasks run, each a member of every trigger\'s consumer group, an integer 0–100 ' +
        '(more tasks than a topic has partitions leaves the extra ones idle); default 1.',
      type: 'integer',
      minimum: 0,
      maximum: 100,
      default: DEPLOY_DEFAULTS.desiredCount,
    },
    logRetentionInDays: {
      description: `logRetentionInDays is how long the poller's logs are kept: one of ${LOG_RETENTION_DAYS.join(', ')}; default ${DEPLOY_DEFAULTS.logRetentionInDays}.`,
      type: 'integer',
      enum: [...LOG_RETENTION_DAYS],
      default: DEPLOY_DEFAULTS.logRetentionInDays,
    },
    cluster: {
      description: 'cluster is the name or ARN of an existing ECS cluster to run in; omit it to create one with the service.',
      type: 'string',
      minLength: 1,
    },
    subnets: {
      description:
        'subnets lists the VPC subnets the tasks run in, from which the brokers must be reachable, e.g. [subnet-0abc1234, subnet-0def5678]; ' +
        'omit it to give the SluiceSubnets stack parameter at deploy (provider.stackParameters).',
      type: 'array',
      minItems: 1,
      items: { description: 'Each subnet is a subnet id: subnet- and 8 or 17 hex digits, e.g. subnet-0abc1234.', type: 'string', pattern: '^subnet-([0-9a-f]{8}|[0-9a-f]{17})$' },
    },
    securityGroups: {
      description:
        'securityGroups lists the security groups of the tasks, which must allow traffic to the brokers and to AWS, e.g. [sg-0abc1234]; ' +
        'omit it to give the SluiceSecurityGroups stack parameter at deploy (provider.stackParameters).',
      type: 'array',
      minItems: 1,
      items: { description: 'Each security group is a security group id: sg- and 8 or 17 hex digits, e.g. sg-0abc1234.', type: 'string', pattern: '^sg-([0-9a-f]{8}|[0-9a-f]{17})$' },
    },
    assignPublicIp: {
      description:
        'assignPublicIp is true or false: true gives each task a public IP (public subnets without a NAT gateway); default false.',
      type: 'boolean',
      default: DEPLOY_DEFAULTS.assignPublicIp,
    },
    scaling: {
      description:
        'scaling lets Application Auto Scaling run between minTasks and maxTasks poller tasks, tracking the OffsetLag metric (the largest lag of any trigger; a queue trigger\'s is its share group\'s whole backlog) ' +
        'at targetLag records, like provisioned pollers, e.g. "scaling: { minTasks: 1, maxTasks: 6, targetLag: 1000 }"; omit it for a fixed desiredCount.',
      type: 'object',
      properties: {
        minTasks: {
          description: 'minTasks is the fewest poller tasks, an integer 1–100 (at least one task must run to report the lag that scales it out).',
          type: 'integer',
          minimum: 1,
          maximum: 100,
        },
        maxTasks: {
          description: "maxTasks is the most poller tasks, an integer 1–100, at least minTasks and at most the largest trigger topic's partition count (any, with a queue trigger: every task takes records of every partition).",
          type: 'integer',
          minimum: 1,
          maximum: 100,
        },
        targetLag: {
          description: 'targetLag is the OffsetLag (records behind, the largest of any trigger) the tasks are scaled to keep, an integer of at least 1, e.g. 1000.',
          type: 'integer',
          minimum: 1,
        },
      },
      required: ['minTasks', 'maxTasks', 'targetLag'],
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;

/** `custom.sluice.deploy` as the schema admits it (before defaults). */
export interface SluiceDeployInput {
  enabled?: boolean;
  image?: string;
  cpu?: number;
  memory?: number;
  architecture?: 'x86_64' | 'arm64';
  desiredCount?: number;
  logRetentionInDays?: number;
  cluster?: string;
  subnets?: string[];
  securityGroups?: string[];
  assignPublicIp?: boolean;
  scaling?: ScalingSettings;
}

/** `custom.sluice.deploy.scaling`: all three are required when it is set. */
export interface ScalingSettings {
  minTasks: number;
  maxTasks: number;
  targetLag: number;
}
