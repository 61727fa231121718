/** What every scenario receives and returns. */
import type { Kafka } from 'kafkajs';

export interface BenchContext {
  brokers: string[];
  kafka: Kafka;
  quick: boolean;
  log(line: string): void;
  /** A topic of 1 KB records over 6 partitions, preloaded by the throughput scenario, reused as the memory backlog. */
  backlog?: { topic: string; records: number; partitions: number };
}

/** One line of the table: every figure is a ratio against a same-run baseline, or a bound. */
export interface Figure {
  scenario: string;
  figure: string;
  value: string;
  target?: string;
  /** Undefined when the figure has no target. */
  met?: boolean;
}

export interface ScenarioOutcome {
  figures: Figure[];
  /** Raw numbers for results/*.json. */
  data: Record<string, unknown>;
}

export type Scenario = (ctx: BenchContext) => Promise<ScenarioOutcome>;
