/**
 * Global setup of the tiers whose files run Lambda's runtime client on Node.js 22 and 24
 * (tests/e2e/lambda-artifacts, installed-package): installs them once (infra/npm-tools.ts, cached
 * per user) before any file runs. Files running side by side would otherwise install the same tool
 * at once, and one install's move into place can remove the other's.
 */
import { ensureLambdaRic, ensureNode } from '../../infra/npm-tools.ts';

export const TEST_NODE_MAJORS = [22, 24];

export default function setup(): void {
  const log = (line: string) => console.log(`[tools] ${line}`);
  for (const major of TEST_NODE_MAJORS) ensureNode(major, log);
  ensureLambdaRic(log);
}
