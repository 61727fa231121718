/**
 * One function's handler bundled with esbuild into what Lambda's Node.js runtime loads: its
 * handler file and everything it imports (serverless-sluice/handler, middy, …) in one file at
 * the `handler:` path, `.mjs` (ESM) or `.cjs`, with a linked source map. Only the modules the job
 * names external (the runtime's AWS SDK, the user's `external`) stay out. Nothing is written to
 * disk: the files come back as zip entries.
 */
import { build } from 'esbuild';
import { relative, sep } from 'node:path';
import { buildFailure } from '../../invoke/bundle.ts';
import { locateHandler } from '../../invoke/handler-path.ts';
import type { BundleJob } from './plan.ts';
import type { BuildSettings } from './settings.ts';
import type { ZipEntry } from './zip.ts';

/**
 * ESM output gets what bundled CommonJS code expects at run time (a `require` for Node's
 * built-ins, `__filename`, `__dirname`); esbuild renames any top-level binding of the same name
 * in the bundled modules, so these cannot clash.
 */
const ESM_BANNER = [
  "import { createRequire as __sluiceCreateRequire } from 'node:module';",
  "import { fileURLToPath as __sluiceFileURLToPath } from 'node:url';",
  "import { dirname as __sluiceDirname } from 'node:path';",
  'const require = __sluiceCreateRequire(import.meta.url);',
  'const __filename = __sluiceFileURLToPath(import.meta.url);',
  'const __dirname = __sluiceDirname(__filename);',
].join(' ');

export interface BundleOutput {
  files: ZipEntry[];
  /** esbuild's warnings, each with its file:line. */
  warnings: string[];
}

export async function bundleForLambda(rootDir: string, job: BundleJob, settings: BuildSettings): Promise<BundleOutput> {
  const { file } = locateHandler(rootDir, job.functionName, job.handler);
  const source = relative(rootDir, file).split(sep).join('/');
  const esm = settings.format === 'esm';
  try {
    const result = await build({
      entryPoints: [file],
      absWorkingDir: rootDir,
      outfile: `${rootDir}${sep}${job.outputPath.split('/').join(sep)}`,
      write: false,
      bundle: true,
      platform: 'node',
      format: settings.format,
      target: `node${job.nodeMajor}`,
      // ESM entry points of packages that ship both, as the runtime's own import would pick.
      mainFields: esm ? ['module', 'main'] : ['main', 'module'],
      external: job.external,
      minify: settings.minify,
      keepNames: settings.minify,
      sourcemap: settings.sourcemap ? 'linked' : false,
      // Stack traces need the mappings and the file names, not a copy of every source.
      sourcesContent: false,
      ...(esm ? { banner: { js: ESM_BANNER } } : {}),
      logLevel: 'silent',
    });
    return {
      files: result.outputFiles.map((f) => ({ path: relative(rootDir, f.path).split(sep).join('/'), data: Buffer.from(f.contents) })),
      warnings: result.warnings.map((w) => (w.location ? `${w.location.file}:${w.location.line}:${w.location.column}: ${w.text}` : w.text)),
    };
  } catch (e) {
    const native = /No loader is configured for "\.node" files/.test(String((e as { message?: unknown }).message));
    const hint = native
      ? `\n  A native module cannot be bundled: name its package in custom.sluice.build.external and ship it in a layer, ` +
        `or list "${job.functionName}" in custom.sluice.build.exclude to let the framework package it with node_modules.`
      : '';
    throw buildFailure(e, job.functionName, source, hint);
  }
}
