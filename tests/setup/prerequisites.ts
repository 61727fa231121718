/**
 * First global setup of the tiers that talk to real services: checks the machine once (Node,
 * Java, Maven until the Kafka jars are resolved, Python with venv: one message each) and makes
 * sure `.sluice/venv` holds the pinned Python tools (infra/python). Tests get its interpreter
 * with `inject('python')` (tests/support/python.ts).
 */
import type { TestProject } from 'vitest/node';
import { checkPrerequisites } from '../../infra/prerequisites.ts';
import { ensureVenv } from '../../infra/python/venv.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    python: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  await checkPrerequisites();
  const { python } = await ensureVenv();
  project.provide('python', python);
}
