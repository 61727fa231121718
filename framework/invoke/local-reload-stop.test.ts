/**
 * A save that meets Ctrl-C. The terminal's SIGINT reaches esbuild's service too (the whole process
 * group), so a reload building at that moment fails with "The service was stopped" before this
 * process's own SIGINT handler has begun the stop: that failure was logged as a broken build (CI-41's
 * docs test of the README's npm start). esbuild's service is made to stop at the reload here; the
 * invoker's own code, watcher and workers run unchanged.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const stopped = { atReload: false, threw: () => {} };
vi.mock('./bundle.ts', async (original) => {
  const real = await original<typeof import('./bundle.ts')>();
  return {
    ...real,
    bundleHandler: async (...args: Parameters<typeof real.bundleHandler>) => {
      if (stopped.atReload && args[3]! > 0) {
        setImmediate(stopped.threw);
        throw new Error(`Cannot build function "orders" (functions/orders.ts):\n  Error: The service was stopped: write EPIPE`);
      }
      return real.bundleHandler(...args);
    },
  };
});
const { createLocalInvoker } = await import('./local.ts');

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Saves the handler; its rebuild fails as esbuild's stopped service fails it; the stop comes `stopAfterMs` after that failure, or never. */
async function saveWhileStopping(stopAfterMs: number | undefined): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-reload-stop-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'functions'));
  const source = join(dir, 'functions', 'orders.ts');
  writeFileSync(source, 'export const handler = async () => 1;\n');
  const errors: string[] = [];
  const logger = { error: (m: string) => errors.push(m), warn() {}, info() {}, debug() {}, child: () => logger, level: 'warn' } as never;
  const invoker = createLocalInvoker({
    rootDir: dir, service: 's', stage: 'dev', region: 'eu-west-1', logger, output: () => undefined, watch: true,
    functions: [{ functionName: 'orders', handler: 'functions/orders.handler', memorySizeMb: 128, timeoutMs: 5_000, environment: {} }],
  });
  await invoker.prepare();
  stopped.atReload = true;
  const threw = new Promise<void>((r) => (stopped.threw = r));
  try {
    writeFileSync(source, 'export const handler = async () => 2;\n');
    await threw;
    if (stopAfterMs !== undefined) {
      await new Promise((r) => setTimeout(r, stopAfterMs));
      invoker.stopWatching?.();
    }
    // The grace a failed build waits for a stop, and more.
    await new Promise((r) => setTimeout(r, 1_500));
    return errors;
  } finally {
    stopped.atReload = false;
    await invoker.close();
  }
}

describe('a reload whose esbuild service stopped', () => {
  it('says nothing when the stop follows at once (Ctrl-C reached esbuild first)', async () => {
    expect(await saveWhileStopping(50)).toEqual([]);
  });

  it('is reported as a build that failed when no stop follows', async () => {
    const errors = await saveWhileStopping(undefined);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('functions/orders.ts changed, but orders keeps running its previous code');
    expect(errors[0]).toContain('The service was stopped');
  });
});
