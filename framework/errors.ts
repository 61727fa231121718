/**
 * One error taxonomy for Sluice: every error the framework raises is a SluiceError with a
 * stable `code`, whether retrying can help (`retriable`), and the `cause` it wraps.
 * Callers branch on predicates (`isRetriable`, `isConfigError`), never on message text.
 */
export type SluiceErrorCode =
  | 'CONFIG_INVALID'
  | 'USAGE_INVALID'
  | 'HANDLER_NOT_FOUND'
  | 'HANDLER_BUILD_FAILED'
  | 'HANDLER_FAILED'
  | 'HANDLER_TIMEOUT'
  | 'BROKER_UNREACHABLE'
  | 'KAFKA_START_FAILED'
  | 'WORKER_CRASHED'
  | 'TRIGGER_FAILED'
  | 'DESTINATION_RECORD_TOO_LARGE'
  | 'HTTP_PORT_TAKEN'
  | 'PREREQUISITE_MISSING'
  | 'SCHEMA_NOT_FOUND'
  | 'SCHEMA_UNUSABLE'
  | 'SCHEMA_REGISTRY_UNAVAILABLE';

export interface SluiceErrorOptions {
  retriable?: boolean;
  cause?: unknown;
}

export class SluiceError extends Error {
  readonly code: SluiceErrorCode;
  readonly retriable: boolean;

  constructor(code: SluiceErrorCode, message: string, options: SluiceErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SluiceError';
    this.code = code;
    this.retriable = options.retriable ?? false;
  }
}

/** Bad configuration: the message names the path, the value and what to change. */
export class ConfigError extends SluiceError {
  constructor(message: string, options: SluiceErrorOptions = {}) {
    super('CONFIG_INVALID', message, options);
    this.name = 'ConfigError';
  }
}

/** A command given something it cannot use (a flag, an argument, a missing topic): the message says what to give instead. */
export class UsageError extends SluiceError {
  constructor(message: string, options: SluiceErrorOptions = {}) {
    super('USAGE_INVALID', message, options);
    this.name = 'UsageError';
  }
}

export const isSluiceError = (e: unknown): e is SluiceError => e instanceof SluiceError;
export const isRetriable = (e: unknown): boolean => isSluiceError(e) && e.retriable;
export const isConfigError = (e: unknown): e is ConfigError => e instanceof ConfigError;
