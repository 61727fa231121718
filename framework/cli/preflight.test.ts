import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TriggerSpec } from '../config/types.ts';
import { preflight } from './preflight.ts';

const trigger = (functionName: string, handler: string) => ({ functionName, handler, engine: 'kafkajs', path: `functions.${functionName}.events[0].sluice` }) as TriggerSpec;

describe('preflight', () => {
  const rootDir = mkdtempSync(path.join(tmpdir(), 'sluice-preflight-'));
  mkdirSync(path.join(rootDir, 'functions'));
  writeFileSync(path.join(rootDir, 'functions', 'orders.ts'), 'export const handler = async () => {};\n');

  it('finds every handler file before any broker starts, and names the one missing with what to do', () => {
    expect(() => preflight({ rootDir }, [trigger('orders', 'functions/orders.handler')], undefined)).not.toThrow();
    expect(() => preflight({ rootDir }, [trigger('orders', 'functions/orders.handler'), trigger('payments', 'functions/payments.handler')], undefined))
      .toThrow(/functions\.payments\.handler: no file for "functions\/payments\.handler".*Create the file or change handler: in serverless\.yml/);
  });

  it('leaves handler files alone when the functions are invoked elsewhere (--invoker lambda)', () => {
    expect(() => preflight({ rootDir }, [trigger('payments', 'functions/payments.handler')], { kind: 'lambda' })).not.toThrow();
  });
});
