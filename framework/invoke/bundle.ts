/**
 * Bundles one function's handler together with the worker runtime into a single ESM file
 * under .sluice/build/, with esbuild. Dependencies stay external (resolved from the
 * project's node_modules), so a bundle takes milliseconds.
 */
import { build } from 'esbuild';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { extname, join, relative, resolve, sep } from 'node:path';
import { SluiceError } from '../errors.ts';
import type { HandlerLocation } from './handler-path.ts';

// Beside this module: worker-runtime.ts in the sources, worker-runtime.js in the published package.
const RUNTIME = fileURLToPath(new URL(`./worker-runtime${extname(fileURLToPath(import.meta.url))}`, import.meta.url));

export interface Bundle {
  file: string;
  /** The service's own source files in the bundle (absolute): what a change reloads (reload.ts). */
  inputs: string[];
}

/**
 * The bundle is `.sluice/build/<function>-<hash of the handler>.mjs`.
 * `version` > 0 names a rebuild's file apart, so a worker starting meanwhile never reads a half-written bundle.
 * The file is written beside its name and renamed into place: two pollers of one service (two members
 * of a group on one machine) bundle the same function to the same path, and neither's worker may load
 * the other's half-written file.
 */
export async function bundleHandler(rootDir: string, functionName: string, location: HandlerLocation, version = 0): Promise<Bundle> {
  const outDir = join(rootDir, '.sluice', 'build');
  await mkdir(outDir, { recursive: true });
  // Named by the function and its handler: two pollers of one directory (two serverless.yml files, a
  // test suite's fixtures) may give one function name to different handlers.
  const name = `${functionName}-${createHash('sha256').update(`${location.file}#${location.exportName}`).digest('hex').slice(0, 8)}`;
  const outfile = join(outDir, version ? `${name}.${version}.mjs` : `${name}.mjs`);
  const source = relative(rootDir, location.file);
  const entry = [
    `import * as handlerModule from ${JSON.stringify(location.file)};`,
    `import { serve } from ${JSON.stringify(RUNTIME)};`,
    `serve(handlerModule, ${JSON.stringify(location.exportName)}, ${JSON.stringify(source)});`,
  ].join('\n');
  try {
    const { metafile, outputFiles } = await build({
      absWorkingDir: rootDir,
      metafile: true,
      stdin: { contents: entry, resolveDir: rootDir, sourcefile: `sluice:${functionName}`, loader: 'ts' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      sourcemap: 'inline',
      outfile,
      write: false,
      logLevel: 'silent',
      // Bundled CommonJS code may call require(); give ESM output a real one.
      banner: { js: "import { createRequire as __sluiceCreateRequire } from 'node:module'; const require = __sluiceCreateRequire(import.meta.url);" },
    });
    const [output] = outputFiles;
    const partial = `${outfile}.${process.pid}.${randomBytes(4).toString('hex')}.partial`;
    await writeFile(partial, output!.contents);
    await rename(partial, outfile);
    const inputs = Object.keys(metafile.inputs)
      .filter((f) => !f.startsWith('sluice:'))
      .map((f) => resolve(rootDir, f))
      .filter((f) => f !== RUNTIME && !f.includes(`${sep}node_modules${sep}`));
    return { file: outfile, inputs };
  } catch (e) {
    throw buildFailure(e, functionName, source);
  }
}

/** esbuild's failure as Sluice's error: each message with its file:line:column. */
export function buildFailure(e: unknown, functionName: string, source: string, hint = ''): SluiceError {
  const errors = (e as { errors?: Array<{ text: string; location?: { file: string; line: number; column: number } | null }> }).errors ?? [];
  const detail = errors
    .map((x) => (x.location ? `${x.location.file}:${x.location.line}:${x.location.column}: ${x.text}` : x.text))
    .join('\n  ');
  return new SluiceError('HANDLER_BUILD_FAILED', `Cannot build function "${functionName}" (${source}):\n  ${detail || String(e)}${hint}`, { cause: e });
}
