/**
 * `npm run bench [-- --quick] [--only throughput,overhead,latency,memory,scale-out,container-start,parallelization,rebalance,engines,console,queue-scale]`
 *
 * Self-contained: starts the bench's own Kafka (.sluice/kafka-bench, port 28392), preloads
 * data, runs each scenario, stops everything, prints the table and a final JSON line, and
 * writes bench/results/<timestamp>.json and bench/results/latest.json. Every figure is a ratio
 * against a baseline measured in the same run, or a bound: timings here are noisy.
 */
import { parseArgs } from 'node:util';
import { startBenchBroker, stopBenchBroker } from './lib/broker.ts';
import { kafkaClient } from './lib/kafka.ts';
import { machineFacts, renderTable, writeResults } from './lib/report.ts';
import type { BenchContext, Figure, Scenario } from './lib/types.ts';
import { consoleCost } from './scenarios/console.ts';
import { containerStart } from './scenarios/container-start.ts';
import { engines } from './scenarios/engines.ts';
import { latency } from './scenarios/latency.ts';
import { memory } from './scenarios/memory.ts';
import { overhead } from './scenarios/overhead.ts';
import { parallelization } from './scenarios/parallelization.ts';
import { rebalance } from './scenarios/rebalance.ts';
import { queueScale } from './scenarios/queue-scale.ts';
import { scaleOut } from './scenarios/scale-out.ts';
import { throughput } from './scenarios/throughput.ts';

const SCENARIOS: Record<string, Scenario> = { throughput, overhead, latency, memory, 'scale-out': scaleOut, 'container-start': containerStart, parallelization, rebalance, engines, console: consoleCost, 'queue-scale': queueScale };

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, only: { type: 'string' } } });
const only = values.only?.split(',').map((s) => s.trim()) ?? Object.keys(SCENARIOS);
const unknown = only.filter((s) => !(s in SCENARIOS));
if (unknown.length) {
  console.error(`bench: unknown scenario ${unknown.join(', ')}; known: ${Object.keys(SCENARIOS).join(', ')}`);
  process.exit(2);
}

const started = new Date();
const t0 = performance.now();
const elapsed = () => `${((performance.now() - t0) / 1000).toFixed(0).padStart(4)} s`;
const log = (line: string) => console.error(`[bench ${elapsed()}] ${line}`);

let interrupted = false;
process.once('SIGINT', () => {
  interrupted = true;
  log('SIGINT: stopping the bench broker (poller processes stop with us)…');
  void stopBenchBroker(log).finally(() => process.exit(130));
});

async function main(): Promise<void> {
  const mode = values.quick ? 'quick' : 'full';
  log(`${mode} mode: ${only.join(', ')}`);
  const broker = await startBenchBroker(log);
  const ctx: BenchContext = { brokers: [broker.bootstrap], kafka: kafkaClient([broker.bootstrap]), quick: values.quick, log };
  const figures: Figure[] = [];
  const details: Record<string, unknown> = {};
  try {
    for (const name of only) {
      if (interrupted) break;
      const s0 = performance.now();
      log(`── ${name}`);
      try {
        ctx.log = (l) => log(`${name}: ${l}`);
        const outcome = await SCENARIOS[name]!(ctx);
        figures.push(...outcome.figures);
        details[name] = { seconds: Math.round((performance.now() - s0) / 1000), ...outcome.data };
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        log(`${name} FAILED: ${message}`);
        figures.push({ scenario: name, figure: 'failed', value: message.slice(0, 80), met: false });
        details[name] = { error: message };
      }
    }
  } finally {
    await stopBenchBroker(log);
  }
  const seconds = Math.round((performance.now() - t0) / 1000);
  const results = { startedAt: started.toISOString(), mode, scenarios: only, seconds, machine: machineFacts(), figures, details };
  const file = await writeResults(results, started);
  console.log(`\nSluice bench, ${mode} mode, ${seconds} s — ${JSON.stringify(results.machine)}\n`);
  console.log(renderTable(figures));
  console.log(`\nresults: ${file}`);
  console.log(JSON.stringify({ mode, seconds, machine: results.machine, figures: figures.map((f) => ({ scenario: f.scenario, figure: f.figure, value: f.value, ...(f.target ? { target: f.target, met: f.met } : {}) })) }));
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(`bench: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exit(1);
  },
);
