/** cfn-lint from the suite's Python environment on a template file: every rule, warnings included. */
import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';
import { python } from './python.ts';

const CFN_LINT = 'import sys; from cfnlint.runner import main; sys.exit(main())';

export /** cfn-lint must be there (the suite's .sluice/venv pins it); a missing linter fails the test, it does not skip it. */
function cfnLint(templateFile: string): void {
  const probe = spawnSync(python(), ['-c', 'import cfnlint'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    throw new Error(`cfn-lint is not in the suite's Python environment (${python()} -c 'import cfnlint': ${probe.stderr.trim().split('\n').pop() || probe.error}); infra/python/requirements.txt pins it.`);
  }
  // Every rule, warnings included, must pass.
  const lint = spawnSync(python(), ['-c', CFN_LINT, '--', templateFile], { encoding: 'utf8' });
  expect(lint.status, `cfn-lint found problems:\n${lint.stdout}${lint.stderr}`).toBe(0);
}
