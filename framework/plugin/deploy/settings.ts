/**
 * Pure: `custom.sluice.deploy` as written → the settings the template is built from, with
 * defaults applied and the rules a JSON schema cannot say (a memory size Fargate allows with the
 * CPU; scaling's bounds) checked, each with its fix. The image may be left out: the template then
 * takes it as the SluiceImage stack parameter, which a deploy must give (./stack-parameters.ts).
 */
import { checkSluiceCustom } from '../../config/validate.ts';
import { ConfigError } from '../../errors.ts';
import { DEPLOY_DEFAULTS, FARGATE_SIZES, type ScalingSettings } from './schema.ts';

const AT = 'custom.sluice.deploy';

export interface DeploySettings {
  /** The poller's image; undefined: none yet, the SluiceImage stack parameter has no default. */
  image: string | undefined;
  /** CPU units (1024 = 1 vCPU). */
  cpu: number;
  /** MiB. */
  memory: number;
  architecture: 'x86_64' | 'arm64';
  desiredCount: number;
  logRetentionInDays: number;
  /** An existing cluster's name or ARN; undefined: the template creates one. */
  cluster: string | undefined;
  /** Defaults of the SluiceSubnets / SluiceSecurityGroups stack parameters; undefined: no default. */
  subnets: string[] | undefined;
  securityGroups: string[] | undefined;
  assignPublicIp: boolean;
  /** Lag-based scaling; undefined: desiredCount tasks, always. */
  scaling: ScalingSettings | undefined;
}

/**
 * `undefined` when `enabled: false` (the user runs the poller elsewhere). Throws a ConfigError
 * listing every problem. `raw` is not mutated.
 */
export function deploySettings(raw: unknown): DeploySettings | undefined {
  const checked = checkSluiceCustom({ deploy: raw === undefined ? {} : structuredClone(raw) }, 'custom.sluice');
  const input = checked.value?.deploy;
  if (input === undefined) throw problems(checked.problems);
  if (input.enabled === false) return undefined;

  const found: string[] = [];
  if (input.image !== undefined && input.image.trim() === '') {
    found.push(`${AT}.image is empty: name the poller's image (e.g. 123456789012.dkr.ecr.us-east-1.amazonaws.com/sluice:1.0), or leave image out and give the SluiceImage stack parameter at deploy.`);
  }
  const cpu = input.cpu ?? DEPLOY_DEFAULTS.cpu;
  const memory = input.memory ?? DEPLOY_DEFAULTS.memory;
  const allowed = FARGATE_SIZES[cpu] ?? [];
  if (!allowed.includes(memory)) {
    found.push(
      `${AT}: memory ${memory} MiB is not a size Fargate runs with cpu ${cpu}. ` +
        `With cpu ${cpu}, memory is one of ${allowed.join(', ')} (MiB); or pick another cpu.`,
    );
  }
  if (input.scaling && input.scaling.maxTasks < input.scaling.minTasks) {
    found.push(`${AT}.scaling: maxTasks ${input.scaling.maxTasks} is below minTasks ${input.scaling.minTasks}; raise maxTasks or lower minTasks.`);
  }
  if (input.scaling && input.desiredCount !== undefined) {
    found.push(`${AT}: desiredCount and scaling are both set. With scaling, Application Auto Scaling sets the task count between minTasks and maxTasks (a fixed desiredCount would reset it at every deploy); remove desiredCount.`);
  }
  if (found.length > 0) throw problems(found);
  return {
    image: input.image?.trim(),
    cpu,
    memory,
    architecture: input.architecture ?? DEPLOY_DEFAULTS.architecture,
    desiredCount: input.desiredCount ?? DEPLOY_DEFAULTS.desiredCount,
    logRetentionInDays: input.logRetentionInDays ?? DEPLOY_DEFAULTS.logRetentionInDays,
    cluster: input.cluster,
    subnets: input.subnets,
    securityGroups: input.securityGroups,
    assignPublicIp: input.assignPublicIp ?? DEPLOY_DEFAULTS.assignPublicIp,
    scaling: input.scaling,
  };
}

function problems(lines: string[]): ConfigError {
  const count = lines.length === 1 ? '1 problem' : `${lines.length} problems`;
  return new ConfigError(`${count} with the poller's deployment settings:\n${lines.map((l) => `  - ${l}`).join('\n')}`);
}
