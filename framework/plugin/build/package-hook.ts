/**
 * `before:package:createDeploymentArtifacts` (and `before:package:function:package`, for
 * `serverless deploy function`): bundles the service's Node.js functions (./plan.ts decides which),
 * writes their zips where the framework writes its own (.serverless/, moved to --package at the
 * end), and sets `package.artifact` on the service
 * or on each function, so the framework's packaging skips them, as it does for any prebuilt
 * artifact (serverless-esbuild works the same way). With source maps, the function's NODE_OPTIONS
 * gets --enable-source-maps.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { getAt } from '../../config/path.ts';
import type { FrameworkFunction } from '../serverless-api.ts';
import { userError, type HookContext } from '../service.ts';
import { bundleForLambda, type BundleOutput } from './bundle.ts';
import { planBuild, pluginNames, type ServiceView } from './plan.ts';
import { buildSettings } from './settings.ts';
import { zipBytes } from './zip.ts';

const SOURCE_MAPS = '--enable-source-maps';

export async function bundleFunctions(c: HookContext, onlyFunction?: string): Promise<void> {
  const { serverless, utils } = c;
  if (serverless.service.provider.name !== 'aws') return;
  try {
    const settings = buildSettings(getAt(serverless.configurationInput, ['custom', 'sluice', 'build']));
    const plan = planBuild(serviceView(c, onlyFunction), settings);
    if (plan.kind === 'aside') {
      if (settings.enabled) utils.log.notice(`Sluice: ${plan.reason}`);
      else utils.log.info(`Sluice: ${plan.reason}`);
      return;
    }
    for (const s of plan.skipped) utils.log.info(`Sluice: function ${s.functionName} is packaged by the framework (${s.why}).`);
    if (plan.artifacts.length === 0) return;

    const started = Date.now();
    const outputs: BundleOutput[] = [];
    for (const job of plan.jobs) outputs.push(await bundleForLambda(serverless.serviceDir, job, settings));
    for (const [i, out] of outputs.entries()) {
      for (const w of out.warnings) utils.log.info(`Sluice: esbuild warning while bundling ${plan.jobs[i]!.handler}: ${w}`);
    }
    // Where the framework writes its own zips; it moves them all to --package / package.path at the end.
    const packageDir = join(serverless.serviceDir, '.serverless');
    await mkdir(packageDir, { recursive: true });
    const written: string[] = [];
    for (const artifact of plan.artifacts) {
      const bytes = zipBytes(artifact.jobs.flatMap((j) => outputs[j]!.files));
      const file = join(packageDir, artifact.file);
      await writeFile(file, bytes);
      if (artifact.scope === 'service') serverless.service.package.artifact = file;
      for (const name of artifact.functions) {
        const fn = serverless.service.getFunction(name);
        if (artifact.scope === 'function') fn.package = { ...fn.package, artifact: file };
        if (settings.sourcemap) enableSourceMaps(c, name, fn);
      }
      written.push(`${artifact.file} (${kilobytes(bytes.length)}: ${artifact.functions.join(', ')})`);
    }
    utils.log.notice(`Sluice: bundled ${plan.artifacts.flatMap((a) => a.functions).length} function(s) with esbuild in ${Date.now() - started} ms: ${written.join('; ')}`);
  } catch (e) {
    throw userError(c, e);
  }
}

function serviceView(c: HookContext, onlyFunction: string | undefined): ServiceView {
  const { service } = c.serverless;
  const provider = c.serverless.getProvider('aws');
  const names = onlyFunction === undefined ? service.getAllFunctions() : [onlyFunction];
  const functions: ServiceView['functions'] = {};
  for (const name of names) {
    const fn = service.getFunction(name);
    functions[name] = {
      ...(fn.handler === undefined ? {} : { handler: fn.handler }),
      ...(fn.image === undefined ? {} : { image: fn.image }),
      runtime: provider.getRuntime(fn.runtime),
      ...(fn.package === undefined ? {} : { package: fn.package }),
    };
  }
  return {
    service: service.service,
    plugins: pluginNames(service.plugins),
    // `serverless deploy function` packages one function: always its own zip.
    package: onlyFunction === undefined ? service.package : { ...service.package, individually: true },
    functions,
  };
}

/** NODE_OPTIONS gets --enable-source-maps, added to what the function or provider already sets. */
function enableSourceMaps(c: HookContext, name: string, fn: FrameworkFunction): void {
  const own = fn.environment?.NODE_OPTIONS;
  const current = own ?? c.serverless.service.provider.environment?.NODE_OPTIONS;
  if (current === undefined || current === '') {
    fn.environment = { ...fn.environment, NODE_OPTIONS: SOURCE_MAPS };
  } else if (typeof current === 'string') {
    if (!current.split(/\s+/).includes(SOURCE_MAPS)) fn.environment = { ...fn.environment, NODE_OPTIONS: `${current} ${SOURCE_MAPS}` };
  } else {
    c.utils.log.warning(`Sluice: functions.${name}: NODE_OPTIONS is not a plain string, so ${SOURCE_MAPS} was not added; add it yourself for stack traces that name your source lines.`);
  }
}

function kilobytes(n: number): string {
  return n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(2)} MiB`;
}
