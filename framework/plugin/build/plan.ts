/**
 * Pure: the service as the framework normalised it + `custom.sluice.build` → what to bundle and
 * which zip each function ships in, or why Sluice steps aside. Every Node.js function is bundled
 * unless the service already has a build of its own (a bundler plugin, a `package.artifact`), the
 * function opts out (`exclude`, its own `package.artifact`, `package.disable`) or is an image.
 * Zips follow the framework's names, so `serverless deploy --package` finds them:
 * `<function>.zip` with `package.individually`, else one `<service>.zip` for all of them
 * (each function its own zip when some other function is still packaged by the framework).
 */
import { ConfigError } from '../../errors.ts';
import { bundlePath, checkSameReading, parseLambdaHandler, type LambdaHandler } from './lambda-handler.ts';
import type { BuildSettings } from './settings.ts';

/** Plugins that build the functions themselves: Sluice leaves packaging to them. */
export const BUNDLER_PLUGINS = ['serverless-esbuild', 'serverless-webpack', 'serverless-plugin-typescript', 'serverless-bundle', 'serverless-jetpack'] as const;

export interface FunctionView {
  handler?: string;
  image?: unknown;
  /** The runtime the framework deploys it with (the function's, else the provider's, else its default). */
  runtime: string;
  package?: { individually?: boolean; artifact?: string; disable?: boolean };
}

export interface ServiceView {
  service: string;
  plugins: string[];
  package: { individually?: boolean; artifact?: string };
  functions: Record<string, FunctionView>;
}

/** One esbuild run: a handler file for one Node.js major; several functions may share it. */
export interface BundleJob {
  /** The `handler:` of the first function that needs it; the source is the framework's reading of it. */
  handler: string;
  functionName: string;
  lambda: LambdaHandler;
  /** Path inside the zip, e.g. functions/orders.mjs. */
  outputPath: string;
  nodeMajor: number;
  external: string[];
}

export interface ArtifactPlan {
  /** File name in the package directory: <function>.zip or <service>.zip. */
  file: string;
  /** 'service': set as the service's package.artifact; 'function': as each function's. */
  scope: 'service' | 'function';
  functions: string[];
  /** Indexes into `jobs`. */
  jobs: number[];
}

export type BuildPlan =
  | { kind: 'aside'; reason: string }
  | { kind: 'bundle'; jobs: BundleJob[]; artifacts: ArtifactPlan[]; skipped: Array<{ functionName: string; why: string }> };

const NODE_RUNTIME = /^nodejs(\d+)\.x$/;

export function planBuild(view: ServiceView, settings: BuildSettings): BuildPlan {
  if (!settings.enabled) return { kind: 'aside', reason: 'custom.sluice.build.enabled is false: the framework packages the functions as it would without Sluice.' };
  const bundler = view.plugins.find((p) => (BUNDLER_PLUGINS as readonly string[]).includes(p));
  if (bundler) return { kind: 'aside', reason: `${bundler} builds this service's functions, so Sluice does not bundle them (custom.sluice.build.enabled: false says so and silences this).` };
  if (view.package.artifact) return { kind: 'aside', reason: `package.artifact is set (${view.package.artifact}): your own build ships the functions, so Sluice does not bundle them.` };

  const unknown = settings.exclude.filter((name) => !Object.hasOwn(view.functions, name));
  if (unknown.length > 0) {
    throw new ConfigError(
      `custom.sluice.build.exclude names ${unknown.map((n) => `"${n}"`).join(', ')}, which ${unknown.length === 1 ? 'is not a function' : 'are not functions'} of this service; ` +
        `list keys under functions: (${Object.keys(view.functions).join(', ') || 'none'}).`,
    );
  }

  const skipped: Array<{ functionName: string; why: string }> = [];
  const bundled: Array<{ name: string; job: number; individually: boolean }> = [];
  const jobs: BundleJob[] = [];
  let leftToFramework = false;
  for (const [name, fn] of Object.entries(view.functions)) {
    if (fn.image !== undefined) continue;
    if (fn.package?.disable) continue;
    if (fn.package?.artifact) {
      skipped.push({ functionName: name, why: `its own package.artifact (${fn.package.artifact})` });
      continue;
    }
    const node = NODE_RUNTIME.exec(fn.runtime);
    const why = settings.exclude.includes(name) ? 'custom.sluice.build.exclude' : !node ? `runtime ${fn.runtime}, not Node.js` : !fn.handler ? 'no handler' : undefined;
    if (why) {
      skipped.push({ functionName: name, why });
      leftToFramework = true;
      continue;
    }
    const handler = fn.handler!;
    const lambda = parseLambdaHandler(name, handler);
    checkSameReading(name, handler, lambda);
    const nodeMajor = Number(node![1]);
    const outputPath = bundlePath(lambda, settings.format === 'esm' ? '.mjs' : '.cjs');
    const external = [...(nodeMajor >= 18 ? ['@aws-sdk/*'] : []), ...settings.external];
    let job = jobs.findIndex((j) => j.outputPath === outputPath && j.nodeMajor === nodeMajor);
    if (job < 0) job = jobs.push({ handler, functionName: name, lambda, outputPath, nodeMajor, external }) - 1;
    bundled.push({ name, job, individually: Boolean(fn.package?.individually || view.package.individually) });
  }

  // One zip for the service unless a path would hold two different bundles (one file for two runtimes).
  const shared = bundled.filter((b) => !b.individually);
  const jobsAt = new Map<string, Set<number>>();
  for (const b of shared) jobsAt.set(jobs[b.job]!.outputPath, (jobsAt.get(jobs[b.job]!.outputPath) ?? new Set<number>()).add(b.job));
  const clash = [...jobsAt.values()].some((j) => j.size > 1);
  const oneZip = shared.length > 0 && !leftToFramework && !clash;
  const artifacts: ArtifactPlan[] = bundled
    .filter((b) => !oneZip || b.individually)
    .map((b) => ({ file: `${b.name}.zip`, scope: 'function', functions: [b.name], jobs: [b.job] }));
  if (oneZip) {
    artifacts.unshift({ file: `${view.service}.zip`, scope: 'service', functions: shared.map((b) => b.name), jobs: [...new Set(shared.map((b) => b.job))] });
  }
  return { kind: 'bundle', jobs, artifacts, skipped };
}

/** Plugin names as serverless.yml lists them: `plugins: [a, b]` or `plugins: { modules: [a, b] }`. */
export function pluginNames(plugins: unknown): string[] {
  const list = Array.isArray(plugins) ? plugins : plugins && typeof plugins === 'object' && Array.isArray((plugins as { modules?: unknown }).modules) ? (plugins as { modules: unknown[] }).modules : [];
  return list.filter((p): p is string => typeof p === 'string');
}
