import { describe, expect, it } from 'vitest';
import { whereThrown } from './handler-worker.ts';

describe('where a module threw while loading', () => {
  it("names the service's own frame, not Node's, a dependency's or the worker runtime's", () => {
    const e = new Error('boom at load');
    e.stack = [
      'Error: boom at load',
      '    at node:internal/modules/esm/module_job:123:5',
      '    at Object.<anonymous> (/srv/app/node_modules/lib/index.js:1:1)',
      '    at <anonymous> (/srv/app/functions/orders.ts:3:7)',
      '    at serve (/srv/app/framework/invoke/worker-runtime.ts:20:3)',
    ].join('\n');
    expect(whereThrown(e)).toBe('\n    at <anonymous> (/srv/app/functions/orders.ts:3:7)');
    expect(whereThrown(Object.assign(new Error('x'), { stack: 'Error: x' }))).toBe('');
  });
});
