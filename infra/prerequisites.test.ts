import { describe, expect, it } from 'vitest';
import { missingPrerequisites, type Probe } from './prerequisites.ts';

const ok = async () => ({ code: 0, output: '' });

describe('prerequisites', () => {
  it('finds nothing missing on a machine that has it all', async () => {
    expect(await missingPrerequisites({ nodeVersion: '20.19.0', run: ok, jarsResolved: false })).toEqual([]);
  });

  it('says what to install, one line each: old Node, no Maven before the jars are resolved, no venv', async () => {
    const probe: Probe = {
      nodeVersion: '18.20.0',
      jarsResolved: false,
      run: async (command) => (command === 'mvn' ? { code: -1, output: 'command not found: mvn' } : { code: 1, output: "ModuleNotFoundError: No module named 'ensurepip'" }),
    };
    const problems = await missingPrerequisites(probe);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^Node.js 20\+ is needed, this is 18.20.0/);
    expect(problems[1]).toMatch(/^Maven is needed once, to resolve the Kafka jars/);
    expect(problems[2]).toMatch(/^Python 3.9\+ with its venv module is needed .*No module named 'ensurepip'.*install python3 and python3-venv/);
  });

  it('does not ask for Maven once the jars are there', async () => {
    const probe: Probe = { nodeVersion: '20.1.0', jarsResolved: true, run: async (c) => (c === 'mvn' ? { code: -1, output: '' } : { code: 0, output: '' }) };
    expect(await missingPrerequisites(probe)).toEqual([]);
  });
});
