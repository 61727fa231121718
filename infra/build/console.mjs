// The console's browser page: framework/console/ui/main.tsx bundled with esbuild into
// <outDir>/app.js (ESM, minified, es2022, Preact's automatic JSX) and <outDir>/app.css (uPlot's
// stylesheet and ours, imported by main.tsx). buildConsole prints nothing; run directly,
// `node infra/build/console.mjs [outDir]` (default dist/console) builds and prints the sizes.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Builds the page into outDir; returns the files' paths. */
export async function buildConsole(outDir) {
  const js = join(resolve(outDir), 'app.js');
  await build({
    absWorkingDir: root,
    entryPoints: [join(root, 'framework', 'console', 'ui', 'main.tsx')],
    outfile: js,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: false,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: join(root, 'framework', 'console', 'ui', 'tsconfig.json'),
    logLevel: 'silent',
    // The bundled libraries' MIT notices (their own headers are not /*! comments, so minifying drops them).
    banner: { js: '/*! Preact (c) Jason Miller, MIT. uPlot (c) Leon Sorokin, MIT. */' },
  });
  return { js, css: join(resolve(outDir), 'app.css') };
}

function size(file) {
  const bytes = readFileSync(file);
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  return `${kib(bytes.length)} (${kib(gzipSync(bytes).length)} gzip)`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const outDir = resolve(process.argv[2] ?? join(root, 'dist', 'console'));
  const started = Date.now();
  const { js, css } = await buildConsole(outDir);
  console.log(`sluice: built the console into ${outDir} in ${Date.now() - started} ms: app.js ${size(js)}, app.css ${size(css)}`);
}
