// What serverless.yml lists under `plugins:`. osls loads plugins with require() (falling back
// to import() only on ERR_REQUIRE_ESM, not on Node 20.19+'s ERR_REQUIRE_ASYNC_MODULE) and
// constructs them synchronously, so this CommonJS file compiles the TypeScript plugin with
// tsx's scoped require. The command modules are imported later with tsx's scoped tsImport,
// as native ESM like under `npm start` (from tsx's ESM build: its CommonJS build resolves its
// own loader path wrongly when it has to fall back to module.register, as on Node 20).
'use strict';

const tsx = require('tsx/cjs/api');

const { createSluicePlugin } = tsx.require('./plugin.ts', __filename);

module.exports = createSluicePlugin(async (specifier) => {
  const { tsImport } = await import('tsx/esm/api');
  return tsImport(specifier, __filename);
});
