import { describe, expect, it } from 'vitest';
import { describeFailure } from './settle.ts';

describe('a failed invocation as the log and the destination carry it', () => {
  it("keeps the handler's own frames, source-mapped, and leaves Sluice's worker out", () => {
    const stack = [
      'Error: cannot handle bad-1',
      '    at check (/srv/app/functions/orders.ts:6:36)',
      '    at handler (/srv/app/functions/orders.ts:3:5)',
      '    at <anonymous> (/srv/app/framework/invoke/worker-runtime.ts:63:22)',
      '    at new Promise (<anonymous>)',
    ].join('\n');
    expect(describeFailure({ kind: 'error', name: 'Error', message: 'cannot handle bad-1', stack })).toBe(
      'Error: cannot handle bad-1\n    at check (/srv/app/functions/orders.ts:6:36)\n    at handler (/srv/app/functions/orders.ts:3:5)',
    );
  });

  it('is the kind, name and message alone without a stack, or with only the worker in it', () => {
    expect(describeFailure({ kind: 'timeout', name: 'TimeoutError', message: 'Task timed out after 1.00 seconds' })).toBe('timeout: TimeoutError: Task timed out after 1.00 seconds');
    expect(describeFailure({ kind: 'error', name: 'Error', message: 'x', stack: 'Error: x\n    at run (/a/worker-runtime.js:1:1)' })).toBe('Error: x');
  });

  it('keeps at most 8 frames', () => {
    const stack = ['Error: deep', ...Array.from({ length: 20 }, (_, i) => `    at f${i} (/srv/app/functions/deep.ts:${i + 1}:1)`)].join('\n');
    expect(describeFailure({ kind: 'error', name: 'Error', message: 'deep', stack }).split('\n')).toHaveLength(9);
  });
});
