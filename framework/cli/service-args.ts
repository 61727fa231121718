/**
 * The options every service command shares (`--stage`, `--function`, `--config`, `--help`) and
 * loading ./serverless.yml (or `--config`) with them.
 */
import { loadService } from '../config/load.ts';
import type { ServiceSpec } from '../config/types.ts';

export const SERVICE_OPTIONS = {
  stage: { type: 'string' },
  function: { type: 'string', short: 'f' },
  config: { type: 'string', short: 'c' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function loadServiceFromArgs(values: { stage?: string | undefined; config?: string | undefined }): Promise<ServiceSpec> {
  return loadService({ rootDir: process.cwd(), ...(values.config ? { file: values.config } : {}), ...(values.stage ? { stage: values.stage } : {}) });
}
