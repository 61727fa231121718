// `npm run build` (run by prepare after an install here, and by prepack): the published package's
// dist/, ESM JavaScript and .d.ts types compiled from framework/ and the infra/kafka files it
// imports, plus the files they need beside them that are not TypeScript: the plugin's CommonJS
// entry, the poms of the local Kafka and the local schema registry, and the console's page
// (dist/console/app.js and app.css, bundled by ./console.mjs).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildConsole } from './console.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'dist');
const started = Date.now();

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
// tsc rewrites `./x.ts` to `./x.js` in the JavaScript only: the declarations get the same, so a
// service's tsc resolves them without allowImportingTsExtensions.
for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
  const file = join(entry.parentPath, entry.name);
  writeFileSync(file, readFileSync(file, 'utf8').replace(/(from\s+|import\s+|import\()(['"])(\.{1,2}\/[^'"]+)\.ts\2/g, '$1$2$3.js$2'));
}
await buildConsole(join(dist, 'console'));
for (const file of ['framework/plugin/index.cjs', 'infra/kafka/pom.xml', 'infra/registry/pom.xml']) {
  mkdirSync(dirname(join(dist, file)), { recursive: true });
  copyFileSync(join(root, file), join(dist, file));
}
console.error(`sluice: built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
