/** Process plumbing shared by the CLI entry points: clean shutdown on signals, readable fatal errors. */
import { isSluiceError } from '../errors.ts';
import type { Logger } from '../observe/logger.ts';
import { printable } from '../observe/printable.ts';

/**
 * On SIGINT/SIGTERM run `cleanup` once, then exit 0. A second signal while cleaning up
 * exits at once (130), for the user who does not want to wait for in-flight work.
 */
export function onShutdown(logger: Logger, cleanup: () => Promise<void>): void {
  untilSignal(logger, cleanup).then(
    () => {
      logger.info('stopped');
      process.exit(0);
    },
    (e: unknown) => exitOnError(e),
  );
}

/**
 * Resolves once a SIGINT/SIGTERM arrived and `cleanup` ran (rejects if it failed), leaving the
 * exit to the caller (the Serverless plugin lets the framework finish). A second signal while
 * cleaning up exits at once (130). Aborting `stopWaiting` removes the handlers and resolves.
 */
export function untilSignal(logger: Logger, cleanup: () => Promise<void>, stopWaiting?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    let stopping = false;
    const off = () => {
      process.off('SIGINT', handle);
      process.off('SIGTERM', handle);
    };
    const handle = (signal: NodeJS.Signals) => {
      if (stopping) {
        logger.warn(`${signal} again: exiting without waiting`);
        process.exit(130);
      }
      stopping = true;
      logger.info(`${signal}: finishing in-flight invocations, committing, leaving the group…`);
      cleanup().then(resolve, reject).finally(off);
    };
    process.on('SIGINT', handle);
    process.on('SIGTERM', handle);
    stopWaiting?.addEventListener('abort', () => {
      if (stopping) return;
      off();
      resolve();
    }, { once: true });
  });
}

/** Prints the error (through printable(): it may quote a record or a broker; a stack keeps its lines) and exits 1. */
export function exitOnError(e: unknown): never {
  const text = isSluiceError(e) ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e);
  process.stderr.write(`\nsluice: ${printable(text, { lines: true })}\n`);
  process.exit(1);
}
