/** Test helper shared by the config tests: the message of the ConfigError `fn` throws. */
import { expect } from 'vitest';
import { isConfigError } from '../errors.ts';

export function configErrorMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(isConfigError(e)).toBe(true);
    return (e as Error).message;
  }
  throw new Error('expected a ConfigError');
}
