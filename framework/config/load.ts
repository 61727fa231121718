import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { ConfigError, isConfigError } from '../errors.ts';
import { parseBrokers } from './brokers.ts';
import { duplicateGroupIds, duplicateTopicsOfFunction } from './group-ids.ts';
import { formatPath, getAt, isPlainObject, showValue, type PathSegment } from './path.ts';
import type { ServiceTuning } from './trigger.ts';
import { buildTrigger, functionSettings, type FunctionInput } from './trigger.ts';
import type { ServiceSpec, TriggerSpec } from './types.ts';
import { fromNativeEvent, nativeEventIndexes, type NativeKind } from './native-events.ts';
import { checkSluiceCustom, checkSluiceEvent } from './validate.ts';
import { resolveVariables } from './variables.ts';

export interface ResolveOptions {
  /** Directory holding serverless.yml; handler paths are relative to it. */
  rootDir: string;
  /** `--stage`; else `provider.stage`; else `dev`. */
  stage?: string;
  /** For `${env:…}` and `KAFKA_BROKERS`; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** The file's name, for messages; default `serverless.yml`. */
  file?: string;
}

export interface LoadOptions extends ResolveOptions {
  /** Relative to `rootDir`; default `serverless.yml`. */
  file?: string;
}

/** Reads, parses and resolves `<rootDir>/serverless.yml` into the triggers Sluice polls. */
export async function loadService(options: LoadOptions): Promise<ServiceSpec> {
  const file = options.file ?? 'serverless.yml';
  const fullPath = path.resolve(options.rootDir, file);
  let text: string;
  try {
    text = await readFile(fullPath, 'utf8');
  } catch (cause) {
    const missing = (cause as NodeJS.ErrnoException).code === 'ENOENT';
    throw new ConfigError(
      missing
        ? `No ${file} found: looked for ${fullPath}. Run from the directory that holds serverless.yml, or say where it is.`
        : `Cannot read ${fullPath}: ${(cause as Error).message}`,
      { cause },
    );
  }
  return resolveService(parseYaml(text, fullPath), { ...options, file, rootDir: path.dirname(fullPath) });
}

/** YAML text -> plain data; a syntax error names the file, line and column. */
export function parseYaml(text: string, file: string): unknown {
  const doc = parseDocument(text, { prettyErrors: true });
  const [error] = doc.errors;
  if (error !== undefined) {
    const { line = 0, col = 0 } = error.linePos?.[0] ?? {};
    const [first = '', ...frame] = error.message.split('\n');
    const reason = first.replace(/ at line \d+, column \d+:?$/, '');
    const more = doc.errors.length > 1 ? ` (and ${doc.errors.length - 1} more YAML error(s) after it)` : '';
    throw new ConfigError(`${file}:${line}:${col}: invalid YAML at line ${line}, column ${col}: ${reason}${more}\n${frame.join('\n')}`.trimEnd());
  }
  try {
    return doc.toJS({ maxAliasCount: 1000 });
  } catch (cause) {
    throw new ConfigError(`${file}: invalid YAML: ${(cause as Error).message}`, { cause });
  }
}

const FAILED = Symbol('variable failed to resolve');

/**
 * Pure: a parsed serverless.yml -> the ServiceSpec. Only what Sluice uses is resolved (service,
 * provider settings, custom.sluice, and functions that have `sluice:` events), so variables
 * elsewhere (resources, other events) never stop `npm start`. Every problem found is reported
 * in one ConfigError, one line each.
 */
export function resolveService(doc: unknown, options: ResolveOptions): ServiceSpec {
  const file = options.file ?? 'serverless.yml';
  const env = options.env ?? process.env;
  if (!isPlainObject(doc)) {
    throw new ConfigError(`${file}: must be a YAML map with service, provider and functions (got ${showValue(doc)}).`);
  }
  const problems: string[] = [];
  const sources = { doc, env, options: { stage: options.stage } };
  const read = (...at: PathSegment[]): unknown => {
    try {
      return resolveVariables(getAt(doc, at), at, sources);
    } catch (e) {
      if (!isConfigError(e)) throw e;
      problems.push(e.message);
      return FAILED;
    }
  };
  const value = (v: unknown) => (v === FAILED ? undefined : v);

  const service = serviceName(read('service'), problems);
  const stage = options.stage ?? scalar(value(read('provider', 'stage'))) ?? 'dev';
  const region = scalar(value(read('provider', 'region'))) ?? 'us-east-1';

  let provider: FunctionInput | undefined;
  const providerDefaults = () =>
    (provider ??= {
      timeout: value(read('provider', 'timeout')),
      memorySize: value(read('provider', 'memorySize')),
      environment: value(read('provider', 'environment')),
    });
  const custom = serviceSettings(read('custom', 'sluice'), problems);
  const customBrokers = custom.brokers;
  let envBrokers: { brokers: string[] | undefined } | undefined; // parsed only if a trigger needs it
  const fallbackBrokers = () => customBrokers ?? (envBrokers ??= { brokers: kafkaBrokersEnv(env, problems) }).brokers;

  const triggers: TriggerSpec[] = [];
  const functions = getAt(doc, ['functions']);
  for (const [name, fn] of isPlainObject(functions) ? Object.entries(functions) : []) {
    const events: Array<{ index: number; kind: 'sluice' | NativeKind }> = [
      ...sluiceEventIndexes(fn).map((index) => ({ index, kind: 'sluice' as const })),
      ...(custom.emulateNativeEvents ? nativeEventIndexes(fn) : []),
    ];
    if (events.length === 0) continue;
    const handler = read('functions', name, 'handler');
    const input: FunctionInput = {
      handler: handler === FAILED ? '(unresolved)' : handler,
      timeout: value(read('functions', name, 'timeout')),
      memorySize: value(read('functions', name, 'memorySize')),
      environment: value(read('functions', name, 'environment')),
    };
    const settings = functionSettings(name, input, providerDefaults());
    problems.push(...settings.problems);
    for (const { index, kind } of events) {
      const at = formatPath(['functions', name, 'events', index, kind]);
      const resolved = read('functions', name, 'events', index, kind);
      if (resolved === FAILED) continue;
      const native = kind === 'sluice' || !isPlainObject(resolved) ? undefined : fromNativeEvent(kind, resolved, at);
      const checked = checkSluiceEvent(native ? native.input : resolved, at);
      // A native kafka event says onFailureDestination where a sluice event says destinationConfig.onFailure.destination.
      const named = (ps: string[]) => (kind === 'kafka' ? ps.map((p) => p.replaceAll(`${at}.destinationConfig.onFailure.destination`, `${at}.onFailureDestination`)) : ps);
      problems.push(...(native?.problems ?? []), ...named(checked.problems));
      if (checked.value === undefined) continue;
      const brokers = checked.value.bootstrapServers === undefined ? fallbackBrokers() : undefined;
      const built = buildTrigger(settings.settings, checked.value, {
        service,
        path: at,
        fallbackBrokers: brokers,
        serviceTuning: custom.tuning,
        triggersOfFunction: events.length,
        ...(native?.iam ? { nativeMsk: native.iam } : {}),
        ...(kind === 'kafka' ? { nativeKafka: true } : {}),
      });
      problems.push(...named(built.problems));
      triggers.push(kind === 'sluice' ? built.trigger : { ...built.trigger, emulates: kind, ...(native?.eventSourceArn ? { eventSourceArn: native.eventSourceArn } : {}) });
    }
  }
  problems.push(...duplicateGroupIds(triggers), ...duplicateTopicsOfFunction(triggers));
  // A rule broken by a custom.sluice value is found once per trigger that uses it: say it once.
  const unique = [...new Set(problems)];
  if (unique.length > 0) {
    const count = unique.length === 1 ? '1 problem' : `${unique.length} problems`;
    throw new ConfigError(`${file}: ${count} with the Sluice configuration:\n${unique.map((p) => `  - ${p}`).join('\n')}`);
  }
  return {
    service, stage, region, rootDir: path.resolve(options.rootDir), triggers,
    ...(custom.http?.port !== undefined ? { http: { port: custom.http.port } } : {}),
    ...(custom.metrics ? { metrics: { ...(custom.metrics.namespace !== undefined ? { namespace: custom.metrics.namespace } : {}), ...(custom.metrics.period !== undefined ? { periodSeconds: custom.metrics.period } : {}) } } : {}),
  };
}

/**
 * `custom.sluice` validated: its brokers, for triggers that name none, and its consumer-group
 * tuning, for values triggers leave out (undefined when custom.sluice is invalid; see buildTrigger).
 */
function serviceSettings(custom: unknown, problems: string[]): ServiceSettings {
  const none = { brokers: undefined, tuning: undefined, emulateNativeEvents: false, http: undefined, metrics: undefined };
  if (custom === FAILED) return none;
  const checked = checkSluiceCustom(custom, 'custom.sluice');
  problems.push(...checked.problems);
  if (checked.value === undefined) return none;
  const { bootstrapServers: servers, emulateNativeEvents = false, http, metrics, ...rest } = checked.value;
  const tuning = pickTuning(rest);
  if (servers === undefined) return { brokers: undefined, tuning, emulateNativeEvents, http, metrics };
  const parsed = parseBrokers(servers, 'custom.sluice.bootstrapServers');
  problems.push(...parsed.problems);
  return { brokers: parsed.brokers, tuning, emulateNativeEvents, http, metrics };
}

interface ServiceSettings {
  brokers: string[] | undefined;
  tuning: ServiceTuning | undefined;
  emulateNativeEvents: boolean;
  http: { port?: number } | undefined;
  metrics: { namespace?: string; period?: number } | undefined;
}

function pickTuning(v: ServiceTuning): ServiceTuning {
  const { maxPollIntervalMs, sessionTimeoutMs, heartbeatIntervalMs, concurrency, maxConsumerRestarts, engine, groupProtocol } = v;
  return Object.fromEntries(Object.entries({ maxPollIntervalMs, sessionTimeoutMs, heartbeatIntervalMs, concurrency, maxConsumerRestarts, engine, groupProtocol }).filter(([, x]) => x !== undefined));
}

/** `KAFKA_BROKERS`, comma-separated; unset or empty means the local broker. */
function kafkaBrokersEnv(env: NodeJS.ProcessEnv, problems: string[]): string[] | undefined {
  const value = env.KAFKA_BROKERS;
  if (value === undefined || value.trim() === '') return undefined;
  const parsed = parseBrokers(value, 'KAFKA_BROKERS');
  problems.push(...parsed.problems);
  return parsed.brokers;
}

function sluiceEventIndexes(fn: unknown): number[] {
  const events = isPlainObject(fn) ? fn.events : undefined;
  if (!Array.isArray(events)) return [];
  return events.flatMap((event, i) => (isPlainObject(event) && Object.hasOwn(event, 'sluice') ? [i] : []));
}

/** `service: name` or `service: { name }`. */
function serviceName(value: unknown, problems: string[]): string {
  if (value === FAILED) return '(unresolved)';
  const name = isPlainObject(value) ? value.name : value;
  if (typeof name === 'string' && name.trim() !== '') return name.trim();
  problems.push(`service: must be the service's name, e.g. "service: orders-app" (got ${showValue(value)}).`);
  return '(unnamed)';
}

function scalar(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}
