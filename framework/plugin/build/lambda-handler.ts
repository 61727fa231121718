/**
 * Pure: a function's `handler:` read the way Lambda's Node.js runtime reads it (aws-lambda-ric's
 * parseHandlerString: the directory part, then the file name up to its FIRST dot, then the export
 * path), which differs from the Serverless Framework's reading (up to the LAST dot) when the file
 * name has a dot. The bundle is written where the runtime looks, so both must agree.
 */
import { ConfigError } from '../../errors.ts';

export interface LambdaHandler {
  /** The directory part, '' or e.g. `functions` (no trailing slash). */
  moduleRoot: string;
  /** The file name without extension, e.g. `orders`. */
  moduleName: string;
  /** The export path, e.g. `handler` (nested: `api.handler`). */
  handlerName: string;
}

export function parseLambdaHandler(functionName: string, handler: string): LambdaHandler {
  const slash = handler.lastIndexOf('/');
  const moduleRoot = slash < 0 ? '' : handler.slice(0, slash);
  const file = handler.slice(slash + 1);
  const match = /^([^.]*)\.(.*)$/.exec(file);
  const problem = (why: string) =>
    new ConfigError(`functions.${functionName}.handler: "${handler}" ${why}, e.g. handler: functions/${functionName}.handler (Lambda loads functions/${functionName}.mjs and calls its export "handler").`);
  if (handler.includes('..')) throw problem('has ".." in it, which Lambda refuses; name the file from the service directory');
  if (handler.startsWith('/') || /^[A-Za-z]:/.test(handler) || handler.includes('\\')) throw problem("is not a path relative to the service directory with '/' separators");
  if (!match || match[1] === '' || match[2] === '') throw problem('is not of the form <file>.<export>');
  const [, moduleName, handlerName] = match;
  return { moduleRoot, moduleName: moduleName!, handlerName: handlerName! };
}

/**
 * The Serverless Framework's reading of the same string (what `npm start` and this bundler take
 * as the source file): the last dot separates the export. A name Lambda would read otherwise is
 * refused, since the deployed function could never load.
 */
export function checkSameReading(functionName: string, handler: string, lambda: LambdaHandler): void {
  const dot = handler.lastIndexOf('.');
  const frameworkFile = handler.slice(0, dot);
  const lambdaFile = lambda.moduleRoot ? `${lambda.moduleRoot}/${lambda.moduleName}` : lambda.moduleName;
  if (frameworkFile !== lambdaFile) {
    throw new ConfigError(
      `functions.${functionName}.handler: "${handler}" names the file ${frameworkFile} here, but Lambda's Node.js runtime reads it as file ${lambdaFile} ` +
        `with the export "${lambda.handlerName}" (it splits at the first dot of the file name). Rename the file without dots, e.g. ${frameworkFile.replace(/\.(?=[^/]*$)/g, '-')}.`,
    );
  }
}

/** Where the bundle goes inside the artifact: `<moduleRoot>/<moduleName><ext>`. */
export function bundlePath(lambda: LambdaHandler, extension: '.mjs' | '.cjs'): string {
  return `${lambda.moduleRoot ? `${lambda.moduleRoot}/` : ''}${lambda.moduleName}${extension}`;
}
