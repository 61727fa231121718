import { describe, expect, it } from 'vitest';
import { whereThrown, withoutRuntimeFrames } from './handler-worker.ts';

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

  it("leaves Sluice's runtime frames and Node's internals out of a handler's logged stack, nothing else", () => {
    const logged = [
      'record orders-0@1 failed: Error: order 9 cannot be paid',
      '    at <anonymous> (/tmp/shop/functions/orders.ts:6:28)',
      '    at eachRecord (file:///tmp/shop/node_modules/serverless-sluice/dist/framework/handler/batch-response.js:19:23)',
      '    at <anonymous> (/tmp/shop/node_modules/serverless-sluice/dist/framework/invoke/worker-runtime.js:55:26)',
      '    at new Promise (<anonymous>)',
      '    at [nodejs.internal.kHybridDispatch] (node:internal/event_target:831:20)',
      '    at MessagePort.<anonymous> (node:internal/per_context/messageport:23:28)',
    ].join('\n');
    expect(withoutRuntimeFrames(logged).split('\n')).toEqual(logged.split('\n').slice(0, 3));
    expect(withoutRuntimeFrames('one line')).toBe('one line');
  });
});
