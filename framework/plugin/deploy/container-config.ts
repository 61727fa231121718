/**
 * What the poller container is told: the resolved trigger specs, as JSON in the SLUICE_TRIGGERS
 * environment variable of its task definition. Written by the package hook (pure), read by
 * framework/cli/container.ts. `functionNames` maps each function key to the deployed Lambda's
 * name (the lambda invoker's option of the same name); the functions' `environment` is left
 * out of the triggers: it belongs to the Lambda, not to the poller.
 */
import type { ServiceSpec, TriggerSpec } from '../../config/types.ts';
import { ConfigError } from '../../errors.ts';
import { isPlainObject } from '../../config/path.ts';
import { EMF_DEFAULTS } from '../../observe/emf.ts';

export const TRIGGERS_ENV = 'SLUICE_TRIGGERS';
/** ECS caps a whole task definition at 64 KiB; leave room for the rest of it. */
export const MAX_CONFIG_CHARS = 48 * 1024;

export interface ContainerConfig {
  version: 1;
  invoker: 'lambda';
  service: string;
  stage: string;
  /** Function key (`orders`) → deployed Lambda name (`shop-prod-orders`), for every function of `triggers`. */
  functionNames: Record<string, string>;
  /** Enabled triggers only, as resolved, with `environment: {}`. */
  triggers: TriggerSpec[];
  /** `custom.sluice.metrics` with defaults: the CloudWatch (EMF) namespace and period. */
  metrics: { namespace: string; periodSeconds: number };
}

/**
 * The triggers the deployed poller service runs: the enabled ones, less native `kafka` and `msk`
 * events emulated locally (their event source mappings poll them in AWS: polling them here too
 * would put a second consumer on the same group).
 */
export function deployedTriggers(service: Pick<ServiceSpec, 'triggers'>): TriggerSpec[] {
  return service.triggers.filter((t) => t.enabled && t.emulates === undefined);
}

/** The namespace and period of the deployed poller's CloudWatch metrics. */
export function metricsSettings(service: Pick<ServiceSpec, 'metrics'>): ContainerConfig['metrics'] {
  return { namespace: service.metrics?.namespace ?? EMF_DEFAULTS.namespace, periodSeconds: service.metrics?.periodSeconds ?? EMF_DEFAULTS.periodSeconds };
}

/**
 * `lambdaNames` maps a serverless.yml function key to its deployed name (`<service>-<stage>-<function>`
 * unless the function sets `name:`). A trigger without brokers is refused: in AWS there is no
 * local Kafka to fall back to.
 */
export function containerConfig(service: ServiceSpec, lambdaNames: Readonly<Record<string, string>>): ContainerConfig {
  const enabled = deployedTriggers(service);
  const noBrokers = enabled.filter((t) => !t.bootstrapServers?.length);
  if (noBrokers.length > 0) {
    throw new ConfigError(
      noBrokers
        .map(
          (t) =>
            `${t.path}: no brokers to deploy with (in AWS there is no local Kafka). Set bootstrapServers on the trigger ` +
            'or custom.sluice.bootstrapServers, or KAFKA_BROKERS while packaging.',
        )
        .join('\n'),
    );
  }
  const shared = enabled.filter((t) => t.groupInstanceId !== undefined);
  if (shared.length > 0) {
    throw new ConfigError(
      shared
        .map(
          (t) =>
            `${t.path}.groupInstanceId: every task of the poller's service would join as the same static member "${t.groupInstanceId}" and fence the others. ` +
            `Remove it for the deployment (ECS gives a replaced task a new identity, so static membership has nothing to keep there); a poller run elsewhere, e.g. as a Kubernetes StatefulSet, takes its own from ${'SLUICE_GROUP_INSTANCE_ID'}.`,
        )
        .join('\n'),
    );
  }
  const functionNames: Record<string, string> = {};
  for (const t of enabled) {
    const lambdaName = lambdaNames[t.functionName];
    if (lambdaName === undefined) throw new Error(`No deployed name for function "${t.functionName}" (${t.path}).`);
    functionNames[t.functionName] = lambdaName;
  }
  const triggers = enabled.map((t): TriggerSpec => ({ ...t, environment: {} }));
  return { version: 1, invoker: 'lambda', service: service.service, stage: service.stage, functionNames, triggers, metrics: metricsSettings(service) };
}

export function serializeContainerConfig(config: ContainerConfig): string {
  const text = JSON.stringify(config);
  if (text.length > MAX_CONFIG_CHARS) {
    throw new ConfigError(
      `The trigger configuration for the poller is ${text.length} characters, more than the ${MAX_CONFIG_CHARS} that fit ` +
        'in its task definition. Split the triggers over several services.',
    );
  }
  return text;
}

/** The container's side: SLUICE_TRIGGERS → the config, or a ConfigError saying what is wrong. */
export function parseContainerConfig(text: string | undefined): ContainerConfig {
  if (text === undefined || text.trim() === '') {
    throw new ConfigError(`${TRIGGERS_ENV} is not set: the poller container reads its triggers from it. Deploy with \`serverless deploy\`, which sets it in the task definition.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError(`${TRIGGERS_ENV} is not valid JSON: ${(cause as Error).message}`, { cause });
  }
  if (!isPlainObject(parsed) || parsed.version !== 1 || parsed.invoker !== 'lambda' || !isPlainObject(parsed.functionNames) || !Array.isArray(parsed.triggers)) {
    throw new ConfigError(
      `${TRIGGERS_ENV} is not a Sluice container configuration (expected {"version":1,"invoker":"lambda","functionNames":{…},"triggers":[…]}); ` +
        'package the service again with the plugin of the same Sluice version as the image.',
    );
  }
  const names = parsed.functionNames;
  const bad = parsed.triggers.findIndex(
    (t: unknown) => !isPlainObject(t) || typeof t.functionName !== 'string' || typeof names[t.functionName] !== 'string' || typeof t.topic !== 'string' || !Array.isArray(t.bootstrapServers),
  );
  if (bad >= 0) throw new ConfigError(`${TRIGGERS_ENV}: trigger ${bad} lacks functionName (with its Lambda name in functionNames), topic or bootstrapServers.`);
  if (parsed.triggers.length === 0) throw new ConfigError(`${TRIGGERS_ENV} lists no trigger: there is nothing to poll.`);
  // A configuration packaged before metrics settings existed gets the defaults; a malformed one
  // is refused (its namespace must be the one the scaling policy tracks).
  if (parsed.metrics === undefined) return { ...(parsed as unknown as ContainerConfig), metrics: metricsSettings({}) };
  const m = parsed.metrics;
  if (!isPlainObject(m) || typeof m.namespace !== 'string' || !Number.isInteger(m.periodSeconds) || (m.periodSeconds as number) < 1) {
    throw new ConfigError(`${TRIGGERS_ENV}: metrics is not {"namespace": "…", "periodSeconds": <seconds>}; package the service again with the plugin of the same Sluice version as the image.`);
  }
  return parsed as unknown as ContainerConfig;
}
