/**
 * The options every service command shares (`--stage`, `--function`, `--config`, `--help`) and
 * loading ./serverless.yml (or `--config`) with them.
 */
import { loadService } from '../config/load.ts';
import type { ServiceSpec, TriggerSpec } from '../config/types.ts';
import { ConfigError } from '../errors.ts';

export const SERVICE_OPTIONS = {
  stage: { type: 'string' },
  function: { type: 'string', short: 'f' },
  config: { type: 'string', short: 'c' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function loadServiceFromArgs(values: { stage?: string | undefined; config?: string | undefined }): Promise<ServiceSpec> {
  return loadService({ rootDir: process.cwd(), ...(values.config ? { file: values.config } : {}), ...(values.stage ? { stage: values.stage } : {}) });
}

/** The triggers of `--function`, else all; none is a ConfigError saying so. */
export function selectTriggers(service: ServiceSpec, fn: string | undefined): TriggerSpec[] {
  const triggers = service.triggers.filter((t) => !fn || t.functionName === fn);
  const known = [...new Set(service.triggers.map((t) => t.functionName))].join(', ') || 'none';
  if (triggers.length === 0) throw new ConfigError(fn ? `No sluice trigger for function "${fn}" (functions with triggers: ${known}).` : 'serverless.yml declares no sluice trigger; add a `sluice:` event to a function.');
  return triggers;
}
