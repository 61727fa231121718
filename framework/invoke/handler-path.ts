import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SluiceError } from '../errors.ts';

const EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'];

export interface HandlerLocation {
  /** Absolute path of the handler's source file. */
  file: string;
  /** Name of the exported function. */
  exportName: string;
}

/**
 * `functions/orders.handler` -> functions/orders.ts (or .mts, .js, …) and export `handler`,
 * as the Serverless Framework reads `handler:` (the last dot separates the export).
 */
export function locateHandler(rootDir: string, functionName: string, handler: string): HandlerLocation {
  const dot = handler.lastIndexOf('.');
  if (dot <= 0 || dot === handler.length - 1) {
    throw new SluiceError(
      'HANDLER_NOT_FOUND',
      `functions.${functionName}.handler: "${handler}" is not of the form <file>.<export>, e.g. functions/${functionName}.handler.`,
    );
  }
  const base = handler.slice(0, dot);
  const exportName = handler.slice(dot + 1);
  for (const ext of EXTENSIONS) {
    const file = join(rootDir, base + ext);
    if (existsSync(file)) return { file, exportName };
  }
  throw new SluiceError(
    'HANDLER_NOT_FOUND',
    `functions.${functionName}.handler: no file for "${handler}": looked for ${base}{${EXTENSIONS.join(',')}} in ${rootDir}. ` +
      `Create the file or change handler: in serverless.yml.`,
  );
}
