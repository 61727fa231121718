/** The interpreter of the suite's own Python environment (.sluice/venv, built by tests/setup/prerequisites.ts). */
import { inject } from 'vitest';

export function python(): string {
  return inject('python');
}
