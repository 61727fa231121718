import { describe, expect, it } from 'vitest';
import { createLogger } from '../observe/logger.ts';
import { watchShareLag, type PartitionBacklog } from './share-lag.ts';

function recordingLogger() {
  const lines: Array<{ level: string; message: string }> = [];
  const logger = createLogger('test', { level: 'debug', format: 'json', write: (line: string) => void lines.push(JSON.parse(line) as { level: string; message: string }) });
  return { logger, lines };
}

const until = async (check: () => boolean) => {
  while (!check()) await new Promise((r) => setTimeout(r, 2));
};

describe('watchShareLag', () => {
  it('reports each reading, one at a time, and stops after the one under way', async () => {
    const { logger } = recordingLogger();
    const reports: PartitionBacklog[][] = [];
    let running = 0;
    let most = 0;
    let reads = 0;
    let release: (() => void) | undefined;
    const watch = watchShareLag({
      logger, periodMs: 1,
      read: async () => {
        most = Math.max(most, ++running);
        reads++;
        if (reads === 3) await new Promise<void>((r) => (release = r));
        running--;
        return [{ partition: 0, lag: reads }];
      },
      report: (p) => reports.push(p),
    });
    await until(() => release !== undefined);
    const stopping = watch.stop();
    release!();
    await stopping;
    const after = reads;
    await new Promise((r) => setTimeout(r, 20));
    expect(reads).toBe(after); // nothing read after stop
    expect(most).toBe(1);
    expect(reports).toEqual([[{ partition: 0, lag: 1 }], [{ partition: 0, lag: 2 }]]); // the third ended after the stop: not reported
  });

  it('keeps reading after a failure: the first of a run of failures is a warning, the next ones debug lines', async () => {
    const { logger, lines } = recordingLogger();
    const reports: PartitionBacklog[][] = [];
    let reads = 0;
    const watch = watchShareLag({
      logger, periodMs: 1,
      read: async () => {
        reads++;
        if (reads <= 3 || reads === 5) throw new Error('NOT_COORDINATOR');
        return [{ partition: 0, lag: reads }];
      },
      report: (p) => reports.push(p),
    });
    await until(() => reads >= 6);
    await watch.stop();
    expect(lines.slice(0, 4).map((l) => l.level)).toEqual(['warn', 'debug', 'debug', 'warn']);
    expect(lines[0]!.message).toMatch(/share group's backlog could not be read/);
    expect(reports[0]).toEqual([{ partition: 0, lag: 4 }]);
  });
});
