/**
 * Pure: the poller task's two IAM roles. The task role may invoke exactly the functions that
 * have enabled sluice triggers, read exactly the declared secrets, write to exactly the
 * triggers' SQS/SNS/S3 on-failure destinations, and read the schema versions of exactly their
 * Glue registries; nothing else, and no wildcard but a registry's `schema/<registryName>/*`. The execution
 * role (used by ECS itself) may pull the image when it is in ECR and write the poller's log group.
 */
import type { Destination } from '../../config/types.ts';

export type Cfn = Record<string, unknown>;
export interface Statement {
  Sid?: string;
  Effect: 'Allow';
  Action: string[];
  Resource: unknown[];
}

const VERSION = '2012-10-17';
/** An ECR image: the IPv4 host (FIPS, China) or the dual-stack one, <account>.dkr-ecr.<region>.on.aws. */
const ECR_IMAGE = /^(\d{12})\.(?:dkr\.ecr(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?|dkr-ecr(?:-fips)?\.([a-z0-9-]+)\.on\.aws)\/([a-z0-9._/-]+?)(?::[\w.-]+)?(?:@sha256:[0-9a-f]{64})?$/;

export interface TaskRoleInput {
  /** Logical ids of the triggered functions' AWS::Lambda::Function resources. */
  functionLogicalIds: string[];
  secretArns: string[];
  destinations: Destination[];
  /** `kafka-cluster:*` statements for triggers that read MSK with IAM (./msk-iam.ts). */
  kafkaCluster?: Statement[];
  /** `glue:*` statements for triggers whose schemaRegistryConfig names a Glue registry (./glue-iam.ts). */
  glueRegistries?: Statement[];
}

export function taskRolePolicy(o: TaskRoleInput): Statement[] {
  const statements: Statement[] = [
    {
      Sid: 'InvokeTriggeredFunctions',
      Effect: 'Allow',
      Action: ['lambda:InvokeFunction'],
      Resource: unique(o.functionLogicalIds).map((id) => ({ 'Fn::GetAtt': [id, 'Arn'] })),
    },
  ];
  if (o.secretArns.length > 0) {
    statements.push({ Sid: 'ReadDeclaredSecrets', Effect: 'Allow', Action: ['secretsmanager:GetSecretValue'], Resource: unique(o.secretArns) });
  }
  const of = (kind: Destination['kind']) => o.destinations.filter((d) => d.kind === kind);
  const sqs = unique(of('sqs').map((d) => d.uri));
  const sns = unique(of('sns').map((d) => d.uri));
  const s3 = unique(of('s3').map((d) => `${d.uri}/*`));
  if (sqs.length) statements.push({ Sid: 'SendToFailureQueues', Effect: 'Allow', Action: ['sqs:GetQueueUrl', 'sqs:SendMessage'], Resource: sqs });
  if (sns.length) statements.push({ Sid: 'PublishToFailureTopics', Effect: 'Allow', Action: ['sns:Publish'], Resource: sns });
  if (s3.length) statements.push({ Sid: 'WriteToFailureBuckets', Effect: 'Allow', Action: ['s3:PutObject'], Resource: s3 });
  statements.push(...(o.kafkaCluster ?? []), ...(o.glueRegistries ?? []));
  return statements;
}

/** Confused-deputy guard, as AWS recommends for both ECS roles: only ECS acting for this account's tasks. */
const THIS_ACCOUNTS_ECS = {
  StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
  ArnLike: { 'aws:SourceArn': { 'Fn::Sub': 'arn:${AWS::Partition}:ecs:${AWS::Region}:${AWS::AccountId}:*' } },
};

export function taskRole(o: TaskRoleInput): Cfn {
  return role(taskRolePolicy(o), THIS_ACCOUNTS_ECS);
}

/**
 * ECS's own role for the task: pull the image (ECR only) and write the poller's log group. An image
 * known when packaging gets pull rights on its repository alone; one given only at deploy (the
 * SluiceImage parameter without a default) on this account's repositories in the stack's region,
 * since CloudFormation cannot take a repository out of an image reference.
 */
export function executionRole(image: string | undefined, logGroupLogicalId: string): Cfn {
  const statements: Statement[] = [
    {
      Sid: 'WriteLogs',
      Effect: 'Allow',
      Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
      Resource: [{ 'Fn::GetAtt': [logGroupLogicalId, 'Arn'] }],
    },
  ];
  const repository = image === undefined ? ANY_REPOSITORY_HERE : ecrRepositoryArn(image);
  if (repository !== undefined) {
    // GetAuthorizationToken is account-wide: IAM accepts no other resource for it.
    statements.push({ Sid: 'EcrLogin', Effect: 'Allow', Action: ['ecr:GetAuthorizationToken'], Resource: ['*'] });
    statements.push({
      Sid: 'PullImage',
      Effect: 'Allow',
      Action: ['ecr:BatchCheckLayerAvailability', 'ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer'],
      Resource: [repository],
    });
  }
  return role(statements, THIS_ACCOUNTS_ECS);
}

const ANY_REPOSITORY_HERE: Cfn = { 'Fn::Sub': 'arn:${AWS::Partition}:ecr:${AWS::Region}:${AWS::AccountId}:repository/*' };

/** The ECR repository of an image reference, or undefined for an image elsewhere (a public registry). */
export function ecrRepositoryArn(image: string): Cfn | undefined {
  const m = ECR_IMAGE.exec(image);
  if (m === null) return undefined;
  const [, account, region, dualStackRegion, repository] = m;
  return { 'Fn::Sub': `arn:\${AWS::Partition}:ecr:${region ?? dualStackRegion}:${account}:repository/${repository}` };
}

function role(statements: Statement[], condition?: Cfn): Cfn {
  return {
    Type: 'AWS::IAM::Role',
    Properties: {
      AssumeRolePolicyDocument: {
        Version: VERSION,
        Statement: [
          {
            Effect: 'Allow',
            Principal: { Service: 'ecs-tasks.amazonaws.com' },
            Action: 'sts:AssumeRole',
            ...(condition ? { Condition: condition } : {}),
          },
        ],
      },
      Policies: [{ PolicyName: 'sluice-poller', PolicyDocument: { Version: VERSION, Statement: statements } }],
    },
  };
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
