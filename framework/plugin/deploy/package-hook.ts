/**
 * The `package:compileEvents` hook: by then the framework has compiled every function into
 * `provider.compiledCloudFormationTemplate`, so the deployed names and logical ids are known.
 * It gathers them, builds the poller's service with the pure ./template.ts and merges it in.
 * Only config/ and this directory are loaded: packaging never loads kafkajs or the poller,
 * except with scaling set, to read the topics' partition counts (./partition-counts.ts).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getAt } from '../../config/path.ts';
import type { TriggerSpec } from '../../config/types.ts';
import { frameworkLogger } from '../framework-logger.ts';
import { serviceOf, userError, type HookContext } from '../service.ts';
import { deployedTriggers } from './container-config.ts';
import { mergeFragment } from './merge.ts';
import { kafkaEvents, markQueueMappings } from './native-queue.ts';
import { checkMaxTasks } from './scaling.ts';
import type { ScalingSettings } from './schema.ts';
import { declaredSecretArns } from './secrets.ts';
import { deploySettings } from './settings.ts';
import { namedInStackParameters, parametersWarning, parametersWithoutValue, stackParameterGiven, stackParameterValue } from './stack-parameters.ts';
import { IDS, pollerTemplate, type DeployedFunction } from './template.ts';

/** Native `kafka` events with consumptionMode: Queue: the mode on their compiled event source mappings (./native-queue.ts). */
export function markNativeQueueEvents(c: HookContext): void {
  const { serverless, utils } = c;
  if (serverless.service.provider.name !== 'aws') return;
  try {
    const template = serverless.service.provider.compiledCloudFormationTemplate;
    const events = kafkaEvents(serverless.service.getAllFunctions().map((key) => ({ key, events: serverless.service.getFunction(key).events })));
    if (template === undefined || events.length === 0) return;
    const naming = serverless.getProvider('aws').naming;
    const marked = markQueueMappings(events, template.Resources, (fn, topic) => naming.getKafkaEventLogicalId(fn, topic));
    if (marked.length > 0) utils.log.info(`Sluice: ConsumptionMode Queue on ${marked.join(', ')} (kafka events with consumptionMode: Queue)`);
  } catch (e) {
    throw userError(c, e);
  }
}

/** osls's name for the template a new stack is created from (naming.getCoreTemplateFileName()). */
const CORE_TEMPLATE = 'cloudformation-template-create-stack.json';

export async function addPollerService(c: HookContext): Promise<void> {
  const { serverless, utils } = c;
  if (serverless.service.provider.name !== 'aws') return;
  try {
    const service = serviceOf(c);
    const enabled = deployedTriggers(service);
    if (enabled.length === 0) {
      utils.log.debug('sluice: no enabled sluice trigger (emulated native events are AWS\'s to poll), so no poller service in the template');
      return;
    }
    const settings = deploySettings(getAt(serverless.configurationInput, ['custom', 'sluice', 'deploy']));
    const stackParameters = (serverless.service.provider as { stackParameters?: unknown }).stackParameters;
    if (settings === undefined) {
      utils.log.notice('Sluice: custom.sluice.deploy.enabled is false: the template has no poller service; run the poller yourself.');
      return;
    }
    if (settings.scaling) await checkScaling(c, settings.scaling, enabled);
    const template = serverless.service.provider.compiledCloudFormationTemplate;
    if (template === undefined) throw new Error('The framework compiled no CloudFormation template before package:compileEvents.');
    const naming = serverless.getProvider('aws').naming;
    const functions: Record<string, DeployedFunction> = {};
    for (const key of new Set(enabled.map((t) => t.functionName))) {
      const logicalId = naming.getLambdaLogicalId(key);
      const lambdaName = serverless.service.getFunction(key).name;
      if (!Object.hasOwn(template.Resources, logicalId) || lambdaName === undefined) {
        throw new Error(`Function "${key}" has a sluice trigger but no ${logicalId} resource in the compiled template.`);
      }
      functions[key] = { lambdaName, logicalId };
    }
    // The image CloudFormation will run: a stack parameter's value wins over the default (custom.sluice.deploy.image);
    // UsePreviousValue keeps the stack's, unknown here.
    const pullImage = stackParameterGiven(stackParameters, IDS.image) ? stackParameterValue(stackParameters, IDS.image) : settings.image;
    const fragment = pollerTemplate({ service, functions, settings, secretArns: declaredSecretArns(enabled), pullImage });
    if (fragment === undefined) return;
    mergeFragment(template, fragment);
    declareForCreate(c, fragment, stackParameters);
    const missing = parametersWithoutValue(settings, stackParameters, (serverless.service as { resources?: { Parameters?: unknown } }).resources?.Parameters);
    if (missing.length > 0) utils.log.warning(parametersWarning(missing));
    const where = settings.cluster ? `in cluster ${settings.cluster}` : 'in a new ECS cluster';
    utils.log.info(
      `Sluice: poller service ${IDS.service} (${settings.scaling ? `${settings.scaling.minTasks}–${settings.scaling.maxTasks}` : settings.desiredCount} × ${settings.cpu / 1024} vCPU, ${settings.memory} MiB, ${pullImage ?? settings.image ?? 'image from the SluiceImage parameter'}) ${where}, ` +
        `invoking ${Object.values(functions).map((f) => f.lambdaName).join(', ')}${settings.scaling ? `, scaling on OffsetLag to ${settings.scaling.targetLag}` : ''}`,
    );
  } catch (e) {
    throw userError(c, e);
  }
}

/**
 * maxTasks against the largest trigger topic's partition count, read from the brokers when they
 * answer from here; when they do not (a cluster inside a VPC), a warning says it was not checked.
 * Not checked with a queue trigger: every task takes records of every partition of a share group,
 * so tasks beyond the partition count help it.
 */
async function checkScaling(c: HookContext, scaling: ScalingSettings, triggers: TriggerSpec[]): Promise<void> {
  if (triggers.some((t) => t.consumptionMode === 'queue')) return;
  const { readPartitionCounts } = await import('./partition-counts.ts');
  let counts: Map<string, number>;
  try {
    counts = await readPartitionCounts(triggers, frameworkLogger(c.utils.log));
  } catch (e) {
    c.utils.log.warning(
      `Sluice: scaling.maxTasks ${scaling.maxTasks} is not checked against the topics' partition counts: they could not be read from here ` +
        `(${e instanceof Error ? e.message : String(e)}). Keep maxTasks at most the largest trigger topic's partition count; extra tasks would idle.`,
    );
    return;
  }
  checkMaxTasks(scaling, counts);
}

/**
 * osls creates a new stack from the core template (its deployment bucket alone) and sends
 * provider.stackParameters with it: CloudFormation refuses parameters a template does not declare,
 * so a first deploy giving SluiceImage (or the networking) that way failed. The core template
 * declares the ones stackParameters names, unused there; the full template uses them.
 */
function declareForCreate(c: HookContext, fragment: { Parameters: Record<string, unknown> }, stackParameters: unknown): void {
  const names = namedInStackParameters(stackParameters);
  const core = c.serverless.service.provider.coreCloudFormationTemplate;
  if (names.length === 0 || core === undefined) return;
  core.Parameters = { ...core.Parameters, ...Object.fromEntries(names.map((n) => [n, fragment.Parameters[n]])) };
  const file = join(c.serverless.serviceDir, '.serverless', CORE_TEMPLATE);
  if (existsSync(file)) writeFileSync(file, JSON.stringify(core, null, 2));
}
