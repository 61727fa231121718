// What serverless.yml lists under `plugins:` (as `serverless-sluice`, the package's main export).
// osls loads plugins with require() and constructs them synchronously.
// - In the published package this file sits beside the compiled plugin.js, ESM that Node
//   20.19+ require()s (nothing in its import graph awaits at top level); the command modules
//   are imported later, as ESM.
// - In the sources it compiles the TypeScript plugin with tsx's scoped require (osls falls back
//   to import() only on ERR_REQUIRE_ESM, not on ERR_REQUIRE_ASYNC_MODULE), and imports the
//   command modules with tsx's scoped tsImport, as native ESM like under `npm start` (from tsx's
//   ESM build: its CommonJS build resolves its own loader path wrongly when it has to fall back
//   to module.register, as on Node 20).
'use strict';

const { existsSync } = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

if (existsSync(path.join(__dirname, 'plugin.js'))) {
  const { createSluicePlugin } = require('./plugin.js');
  module.exports = createSluicePlugin((specifier) => import(pathToFileURL(path.join(__dirname, specifier.replace(/\.ts$/, '.js'))).href));
} else {
  const tsx = require('tsx/cjs/api');
  const { createSluicePlugin } = tsx.require('./plugin.ts', __filename);
  module.exports = createSluicePlugin(async (specifier) => {
    const { tsImport } = await import('tsx/esm/api');
    return tsImport(specifier, __filename);
  });
}
