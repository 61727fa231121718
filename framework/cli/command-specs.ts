/**
 * The commands both front doors run from one definition (command-spec.ts). Plain data: the
 * plugin reads these when it loads, without pulling in kafkajs.
 */
import type { CommandSpec } from './command-spec.ts';

export const TAIL: CommandSpec = {
  name: 'tail',
  usage: "Print a topic's records as they arrive, a failure destination's with why each failed",
  positional: 'topic',
  options: {
    topic: { type: 'string', short: 't', usage: 'The topic to read' },
    'from-beginning': { type: 'boolean', usage: 'Start at the first record still in the log (default: new records only)' },
    count: { type: 'string', short: 'n', usage: 'Stop after this many records' },
    json: { type: 'boolean', usage: 'One JSON object per record' },
    brokers: { type: 'string', short: 'b', usage: 'host:port,… (default: KAFKA_BROKERS, else the local Kafka)' },
  },
  examples: ['npm run tail -- orders-failed --from-beginning', 'npm run tail -- orders --json -n 10'],
};

export const REDRIVE: CommandSpec = {
  name: 'redrive',
  usage: 'Send the failed records a Kafka destination holds back to their source topic, to be processed again',
  positional: 'topic',
  options: {
    topic: { type: 'string', short: 't', usage: 'The destination topic the failed records are in' },
    to: { type: 'string', usage: 'Send them here instead of their source topic' },
    partition: { type: 'string', usage: 'Only records from this source partition' },
    'from-offset': { type: 'string', usage: 'Only records from this source offset on' },
    'to-offset': { type: 'string', usage: 'Only records up to this source offset' },
    reason: { type: 'string', usage: 'Only records that failed for this reason (e.g. RetryAttemptsExhausted)' },
    'dry-run': { type: 'boolean', usage: 'List what would be sent, send nothing' },
    brokers: { type: 'string', short: 'b', usage: 'host:port,… (default: KAFKA_BROKERS, else the local Kafka)' },
  },
  examples: [
    'npm run redrive -- orders-failed --dry-run',
    'npm run redrive -- orders-failed --reason RetryAttemptsExhausted --partition 0 --from-offset 100',
  ],
};
