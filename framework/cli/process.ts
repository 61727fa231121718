/** Process plumbing shared by the CLI entry points: clean shutdown on signals, readable fatal errors. */
import { isSluiceError } from '../errors.ts';
import type { Logger } from '../observe/logger.ts';

/**
 * On SIGINT/SIGTERM run `cleanup` once, then exit 0. A second signal while cleaning up
 * exits at once (130), for the user who does not want to wait for in-flight work.
 */
export function onShutdown(logger: Logger, cleanup: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn(`${signal} again: exiting without waiting`);
      process.exit(130);
    }
    stopping = true;
    logger.info(`${signal}: finishing in-flight invocations, committing, leaving the group…`);
    cleanup().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (e: unknown) => exitOnError(e),
    );
  };
  process.on('SIGINT', handle);
  process.on('SIGTERM', handle);
}

export function exitOnError(e: unknown): never {
  if (isSluiceError(e)) {
    process.stderr.write(`\nsluice: ${e.message}\n`);
  } else {
    process.stderr.write(`\nsluice: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  }
  process.exit(1);
}
