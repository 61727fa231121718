import { queueModeProblems } from './queue-mode.ts';
import { buildAccess } from './access.ts';
import { buildSchemaRegistry } from './schema-registry.ts';
import { parseBrokers } from './brokers.ts';
import { failurePolicy } from './failure.ts';
import { parseFilterPatterns } from './filters.ts';
import { groupSettings } from './group.ts';
import { defaultGroupId, defaultGroupIdProblem } from './group-ids.ts';
import { isPlainObject, showValue } from './path.ts';
import { engineSettings, type EngineInput } from './engine.ts';
import type { GroupTuningInput, SluiceEventInput } from './schema.ts';
import type { TriggerSpec } from './types.ts';

/**
 * Pure: one validated `sluice:` event + its function's settings -> a TriggerSpec with every
 * default applied (see types.ts). Problems come back as message lines, never thrown, so the
 * caller reports every problem of the file at once.
 */
export type FunctionSettings = Pick<TriggerSpec, 'functionName' | 'handler' | 'timeoutMs' | 'memorySizeMb' | 'environment'>;

/** Function-level keys as written (variables resolved), and the provider-level fallbacks. */
export interface FunctionInput {
  handler?: unknown;
  timeout?: unknown;
  memorySize?: unknown;
  environment?: unknown;
}

export const DEFAULT_TIMEOUT_S = 6;
export const DEFAULT_MEMORY_MB = 1024;
export const DEFAULT_BATCH_SIZE = 100;
export const DEFAULT_BATCHING_WINDOW_MS = 500;

export function functionSettings(
  functionName: string,
  fn: FunctionInput,
  provider: FunctionInput,
): { settings: FunctionSettings; problems: string[] } {
  const problems: string[] = [];
  const at = `functions.${functionName}`;
  const handler = typeof fn.handler === 'string' ? fn.handler.trim() : '';
  if (handler === '') {
    problems.push(
      fn.handler === undefined || fn.handler === null
        ? `${at}: missing required property "handler" (the handler to invoke, e.g. functions/${functionName}.handler).`
        : `${at}.handler: must be a file path and an export, e.g. functions/${functionName}.handler (got ${showValue(fn.handler)}).`,
    );
  }
  const timeoutHint = 'timeout is the function\'s time limit in seconds, e.g. 30.';
  const timeout = positive(fn.timeout, `${at}.timeout`, timeoutHint, problems) ??
    positive(provider.timeout, 'provider.timeout', timeoutHint, problems) ?? DEFAULT_TIMEOUT_S;
  const memoryHint = 'memorySize is the function\'s memory in MB, e.g. 1024.';
  const memory = positive(fn.memorySize, `${at}.memorySize`, memoryHint, problems) ??
    positive(provider.memorySize, 'provider.memorySize', memoryHint, problems) ?? DEFAULT_MEMORY_MB;
  const environment = {
    ...stringMap(provider.environment, 'provider.environment', problems),
    ...stringMap(fn.environment, `${at}.environment`, problems),
  };
  const settings = { functionName, handler, timeoutMs: Math.round(timeout * 1000), memorySizeMb: memory, environment };
  return { settings, problems };
}

/** What `custom.sluice` sets for triggers that leave it out: group tuning, engine and group protocol. */
export type ServiceTuning = GroupTuningInput & Omit<EngineInput, 'groupInstanceId'>;

export interface TriggerContext {
  service: string;
  /** Where the event is declared: `functions.orders.events[0].sluice`. */
  path: string;
  /** From `custom.sluice.bootstrapServers`, else KAFKA_BROKERS, already parsed; undefined = the local broker. */
  fallbackBrokers: string[] | undefined;
  /**
   * `custom.sluice`'s consumer-group tuning, for values the event leaves out; undefined when
   * custom.sluice is invalid (already reported), which skips the cross-field rules (group.ts).
   */
  serviceTuning: ServiceTuning | undefined;
  /** How many triggers the function declares (its default group id names the topic when several). */
  triggersOfFunction: number;
  /**
   * Set for an emulated native `msk` event that AWS would read with IAM (no `saslScram512`):
   * its cluster ARN when `arn` is a string. A `sluice:` event says it with its own `arn`.
   */
  nativeMsk?: { clusterArn: string | undefined };
  /** Set for an emulated native `kafka` event: its problems name the native event's own properties. */
  nativeKafka?: boolean;
}

export function buildTrigger(
  fn: FunctionSettings,
  event: SluiceEventInput,
  context: TriggerContext,
): { trigger: TriggerSpec; problems: string[] } {
  const own = event.bootstrapServers === undefined ? undefined : parseBrokers(event.bootstrapServers, `${context.path}.bootstrapServers`);
  const startingPosition = event.startingPosition ?? 'TRIM_HORIZON';
  const group = groupSettings(event, context.serviceTuning, { path: context.path, functionName: fn.functionName, timeoutMs: fn.timeoutMs });
  const failure = failurePolicy(event, { path: context.path, topic: event.topic });
  const engine = engineSettings(event, context.serviceTuning, context.path);
  const filters = parseFilterPatterns(event.filterPatterns ?? [], `${context.path}.filterPatterns`);
  const bootstrapServers = own === undefined ? context.fallbackBrokers : own.brokers;
  const mskCluster = event.arn !== undefined ? { clusterArn: event.arn } : context.nativeMsk;
  const access = buildAccess(event, context.path, mskCluster && { ...mskCluster, localBroker: bootstrapServers === undefined });
  const trigger: TriggerSpec = {
    ...fn,
    topic: event.topic,
    bootstrapServers,
    batchSize: event.batchSize ?? DEFAULT_BATCH_SIZE,
    parallelizationFactor: event.parallelizationFactor ?? 1,
    ...(event.ordering === 'unordered' ? { ordering: 'unordered' as const } : {}),
    ...(event.consumptionMode === 'queue' ? { consumptionMode: 'queue' as const } : {}),
    ...engine.settings,
    maximumBatchingWindowMs:
      event.maximumBatchingWindow === undefined ? DEFAULT_BATCHING_WINDOW_MS : event.maximumBatchingWindow * 1000,
    startingPosition,
    consumerGroupId: event.consumerGroupId ?? defaultGroupId(context.service, fn.functionName, event.topic, context.triggersOfFunction),
    enabled: event.enabled ?? true,
    ...group.settings,
    failure: failure.policy,
    filterPatterns: filters.patterns,
    path: context.path,
  };
  const orderingProblem = event.ordering === 'unordered' && trigger.parallelizationFactor === 1
    ? `${context.path}.ordering: unordered needs parallelizationFactor above 1 (got ${trigger.parallelizationFactor}): one invocation of a partition at a time keeps its whole order. Set parallelizationFactor: 2–10, or remove ordering.`
    : undefined;
  const groupProblem = event.consumerGroupId === undefined ? defaultGroupIdProblem(trigger.consumerGroupId, context.path) : undefined;
  if (access.access) trigger.access = access.access;
  if (event.arn !== undefined) trigger.eventSourceArn = event.arn;
  const registry = event.schemaRegistryConfig && buildSchemaRegistry(event.schemaRegistryConfig, context.path);
  if (registry) trigger.schemaRegistry = registry.spec;
  if (startingPosition === 'AT_TIMESTAMP' && event.startingPositionTimestamp !== undefined) {
    trigger.startingPositionTimestampMs = Math.round(event.startingPositionTimestamp * 1000);
  }
  return { trigger, problems: [...(own?.problems ?? []), ...queueModeProblems(event, context.path, context.nativeKafka === true), ...(orderingProblem && event.consumptionMode !== 'queue' ? [orderingProblem] : []), ...(groupProblem ? [groupProblem] : []), ...group.problems, ...engine.problems, ...failure.problems, ...filters.problems, ...access.problems, ...(registry?.problems ?? [])] };
}

/** A positive number (numeric strings from `${env:…}` accepted), undefined when not set. */
function positive(value: unknown, where: string, hint: string, problems: string[]): number | undefined {
  if (value === undefined || value === null) return undefined;
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n === 'number' && Number.isFinite(n) && n > 0) return n;
  problems.push(`${where}: must be a positive number (got ${showValue(value)}). ${hint}`);
  return undefined;
}

/**
 * `environment:` as strings. Empty values are left out; so are maps and lists, which are
 * CloudFormation references (`Ref`, `Fn::GetAtt`) that only exist once deployed.
 */
function stringMap(value: unknown, where: string, problems: string[]): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) {
    problems.push(`${where}: must be a map of variable names to values (got ${showValue(value)}). E.g. environment: { LOG_LEVEL: debug }.`);
    return {};
  }
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[name] = String(v);
  }
  return out;
}
