/**
 * `custom.sluice.build`: how `serverless package` bundles the service's Node.js functions with
 * esbuild into what Lambda runs. Registered with the framework as part of `custom.sluice`
 * (framework/config/schema.ts); defaults are applied in ./settings.ts. As elsewhere, every
 * `description` is the "how to fix" sentence of the message.
 */

export const BUILD_DEFAULTS = {
  enabled: true,
  minify: false,
  sourcemap: true,
  format: 'esm',
} as const;

export const sluiceBuildSchema = {
  description:
    'custom.sluice.build says how `serverless package` bundles each Node.js function with esbuild into what Lambda runs, ' +
    'e.g. "build: { minify: true, external: [sharp], exclude: [legacy] }"; "build: { enabled: false }" leaves packaging to the framework or your own build.',
  type: 'object',
  properties: {
    enabled: {
      description: 'enabled is true or false: false leaves every function to the framework\'s own packaging (or your build); default true.',
      type: 'boolean',
      default: BUILD_DEFAULTS.enabled,
    },
    minify: {
      description: 'minify is true or false: true minifies the bundles (smaller, with the source maps still naming your lines); default false.',
      type: 'boolean',
      default: BUILD_DEFAULTS.minify,
    },
    sourcemap: {
      description:
        'sourcemap is true or false: true writes a source map beside each bundle and sets NODE_OPTIONS=--enable-source-maps on the function, ' +
        'so stack traces name your TypeScript lines; default true.',
      type: 'boolean',
      default: BUILD_DEFAULTS.sourcemap,
    },
    format: {
      description:
        'format is esm or cjs: the module format of the bundles (esm writes <handler file>.mjs, cjs writes <handler file>.cjs); default esm. ' +
        'Choose cjs for code that needs CommonJS at run time.',
      enum: ['esm', 'cjs'],
      default: BUILD_DEFAULTS.format,
    },
    external: {
      description:
        'external lists the modules left out of the bundles, which a layer or the Lambda runtime must provide, e.g. [sharp, "@my-org/*"]; ' +
        'the AWS SDK v3 (@aws-sdk/*) is left out by itself on nodejs18.x and later, whose runtimes include it.',
      type: 'array',
      default: [],
      items: { description: 'Each external module is a package name or a pattern with one *, e.g. sharp or "@my-org/*".', type: 'string', minLength: 1 },
    },
    exclude: {
      description:
        'exclude lists the functions Sluice does not bundle, by their key under functions:, e.g. [legacy]: the framework packages them as it would without Sluice.',
      type: 'array',
      default: [],
      items: { description: 'Each excluded function is a key under functions:, e.g. legacy.', type: 'string', minLength: 1 },
    },
  },
  additionalProperties: false,
} as const;

/** `custom.sluice.build` as the schema admits it (before defaults). */
export interface SluiceBuildInput {
  enabled?: boolean;
  minify?: boolean;
  sourcemap?: boolean;
  format?: 'esm' | 'cjs';
  external?: string[];
  exclude?: string[];
}
