/**
 * The service as Sluice sees it, built from the framework's resolved configuration with
 * resolveService (as `npm start` builds it from the file), and the check the `initialize` hook
 * runs for every command. Light on purpose: only config/, so `serverless print` and
 * `serverless package` never load the poller.
 */
import { resolveService } from '../config/load.ts';
import { isPlainObject } from '../config/path.ts';
import type { ServiceSpec } from '../config/types.ts';
import { isConfigError, isSluiceError } from '../errors.ts';
import type { CliOptions, PluginUtils, Serverless } from './serverless-api.ts';

export interface HookContext {
  serverless: Serverless;
  options: CliOptions;
  utils: PluginUtils;
}

export function serviceOf(c: HookContext): ServiceSpec {
  const doc = c.serverless.configurationInput;
  const stage = typeof c.options.stage === 'string' ? c.options.stage : c.serverless.service.provider.stage;
  return resolveService(isPlainObject(doc) ? doc : {}, {
    rootDir: c.serverless.serviceDir,
    file: c.serverless.configurationFilename ?? 'serverless.yml',
    ...(stage ? { stage } : {}),
  });
}

/**
 * What the JSON schema cannot say (cross-field rules such as heartbeat vs session timeout, and
 * "did you mean"), with the path and the fix: an error, a warning or nothing, per configValidationMode.
 */
export async function checkService(c: HookContext): Promise<void> {
  const mode = c.serverless.service.configValidationMode ?? 'error';
  if (mode === 'off') return;
  try {
    serviceOf(c);
  } catch (e) {
    if (mode === 'warn' && isConfigError(e)) c.utils.log.warning(e.message);
    else throw userError(c, e);
  }
}

/**
 * Errors whose message says what to do become the framework's user errors (printed without a
 * stack trace); anything else stays as it is, a bug to report with its stack.
 */
export function userError(c: HookContext, e: unknown): unknown {
  if (isSluiceError(e)) return new c.serverless.classes.Error(e.message, `SLUICE_${e.code}`);
  if (e instanceof Error && e.constructor === Error) return new c.serverless.classes.Error(e.message, 'SLUICE_COMMAND_FAILED');
  return e;
}
