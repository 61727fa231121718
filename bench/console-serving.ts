/**
 * `node --import tsx bench/console-serving.ts [invocations a second] [batchSize] [rounds]`: what
 * serving a page costs the process that runs the console, with no browser and no broker: the
 * console at a steady pace of invocations (lib/paced-console.ts), read for 10 s with no page and 10 s
 * with its live stream read by this process (what a page asks: the newest invocations, then
 * /api/live), the two taking turns. It prints the process's CPU a second for each; the difference is
 * the serving's. (Side by side with a real poller, the console scenario's "stream" pairs.)
 */
import { pacedConsole } from './lib/paced-console.ts';
import { median } from './lib/stats.ts';
import { readLive } from './scenarios/console-pairs.ts';

const perSecond = Number(process.argv[2] ?? 200);
const batchSize = Number(process.argv[3] ?? 1000);
const rounds = Number(process.argv[4] ?? 3);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const served = await pacedConsole(perSecond, batchSize);
const taken = { none: [] as number[], stream: [] as number[] };
try {
  await sleep(3_000);
  for (let i = 0; i < rounds; i++) {
    for (const side of ['none', 'stream'] as const) {
      const stream = side === 'stream' ? await readLive(served.url) : undefined;
      await sleep(2_000);
      const [cpu, t] = [process.cpuUsage(), performance.now()];
      await sleep(10_000);
      const used = process.cpuUsage(cpu);
      const perS = (used.user + used.system) / 1000 / ((performance.now() - t) / 1000);
      taken[side].push(perS);
      console.log(`round ${i + 1}, ${side === 'none' ? 'no page' : 'its stream read'}: ${perS.toFixed(1)} ms of CPU a second`);
      stream?.destroy();
    }
  }
  console.log(`at ${perSecond} invocations a second of ${batchSize} records: median ${median(taken.none).toFixed(1)} ms of CPU a second with no page, ${median(taken.stream).toFixed(1)} with its stream read`);
} finally {
  await served.close();
}
process.exit(0);
