/**
 * Pure: `custom.sluice.build` as written → the settings the bundler runs with, defaults applied.
 * The schema (./schema.ts) says what is allowed; this checks it the same way as everywhere else.
 */
import { checkSluiceCustom } from '../../config/validate.ts';
import { ConfigError } from '../../errors.ts';
import { BUILD_DEFAULTS } from './schema.ts';

export interface BuildSettings {
  enabled: boolean;
  minify: boolean;
  sourcemap: boolean;
  format: 'esm' | 'cjs';
  /** Left out of every bundle besides the runtime's own AWS SDK. */
  external: string[];
  /** Function keys left to the framework's packaging. */
  exclude: string[];
}

export function buildSettings(raw: unknown): BuildSettings {
  const checked = checkSluiceCustom({ build: raw === undefined ? {} : structuredClone(raw) }, 'custom.sluice');
  const input = checked.value?.build;
  if (input === undefined) {
    throw new ConfigError(`custom.sluice.build is not valid:\n${checked.problems.map((l) => `  - ${l}`).join('\n')}`);
  }
  return {
    enabled: input.enabled ?? BUILD_DEFAULTS.enabled,
    minify: input.minify ?? BUILD_DEFAULTS.minify,
    sourcemap: input.sourcemap ?? BUILD_DEFAULTS.sourcemap,
    format: input.format ?? BUILD_DEFAULTS.format,
    external: input.external ?? [],
    exclude: input.exclude ?? [],
  };
}
