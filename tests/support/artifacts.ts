/**
 * What `serverless package` wrote for the functions, read as AWS would: each
 * AWS::Lambda::Function of the compiled template (handler, runtime, environment, the zip its
 * Code.S3Key names) and that zip unpacked, by Python's zipfile (a reader that is not ours), into
 * an empty directory outside the repository, as Lambda unpacks it into /var/task.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, sep } from 'node:path';
import { expect } from 'vitest';
import { REPO } from './cli.ts';
import { python } from './python.ts';

export interface PackagedFunction {
  logicalId: string;
  /** The deployed name, e.g. sluice-example-dev-orders. */
  name: string;
  handler: string;
  runtime: string;
  timeout: number;
  environment: Record<string, string>;
  /** The zip in the package directory. */
  zip: string;
}

interface FunctionResource {
  Type: string;
  Properties: {
    FunctionName: string;
    Handler: string;
    Runtime: string;
    Timeout: number;
    Code: { S3Key: string };
    Environment?: { Variables: Record<string, string> };
  };
}

export function packagedFunctions(packageDir: string): PackagedFunction[] {
  const template = JSON.parse(readFileSync(join(packageDir, 'cloudformation-template-update-stack.json'), 'utf8')) as { Resources: Record<string, FunctionResource> };
  return Object.entries(template.Resources)
    .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
    .map(([logicalId, { Properties: p }]) => ({
      logicalId,
      name: p.FunctionName,
      handler: p.Handler,
      runtime: p.Runtime,
      timeout: p.Timeout,
      environment: p.Environment?.Variables ?? {},
      zip: join(packageDir, basename(p.Code.S3Key)),
    }));
}

/** Unpacks into a new directory under the OS's temp directory; checks nothing up the tree could lend it modules. */
export function unpack(zip: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-task-'));
  const run = spawnSync(python(), ['-c', 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', zip, dir], { encoding: 'utf8' });
  expect(run.status, `unzip ${zip}: ${run.stderr}`).toBe(0);
  expect(relative(REPO, dir).startsWith('..'), `${dir} is outside the repository`).toBe(true);
  for (let up = dir; ; up = dirname(up)) {
    expect(existsSync(join(up, 'node_modules')), `no node_modules in ${up}`).toBe(false);
    if (up !== dir) expect(existsSync(join(up, 'package.json')), `no package.json in ${up}`).toBe(false);
    if (dirname(up) === up) break;
  }
  return dir;
}

/** Every file under `dir`, '/'-separated, sorted. */
export function filesIn(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => statSync(join(dir, f)).isFile())
    .map((f) => f.split(sep).join('/'))
    .sort();
}
