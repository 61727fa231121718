/**
 * `node --import tsx bench/console-bookkeeping.ts [invocations]`: the console's own CPU per invocation
 * with no page open, without a broker (bench/lib/console-bookkeeping.ts): it prints the µs of CPU
 * per invocation each side took and their difference. The console scenario reports the same.
 */
import { consoleBookkeeping } from './lib/console-bookkeeping.ts';

const taken = await consoleBookkeeping(Number(process.argv[2] ?? 200_000));
console.log(`without the console ${taken.without.toFixed(2)} µs, with it (no page) ${taken.with.toFixed(2)} µs of CPU per invocation: the console's own ${(taken.with - taken.without).toFixed(2)} µs`);
