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
    exit: { type: 'boolean', short: 'e', usage: 'Stop at the end of the log as it was when tail started, like kcat -e (with --count, whichever comes first)' },
    json: { type: 'boolean', usage: 'One JSON object per record' },
    brokers: { type: 'string', short: 'b', usage: 'host:port,… (default: KAFKA_BROKERS, else the local Kafka)' },
  },
  examples: ['npm run tail -- orders-failed --from-beginning', 'npm run tail -- orders --json -n 10', 'npm run tail -- orders-failed --from-beginning --exit'],
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

export const INVOKE: CommandSpec = {
  name: 'invoke',
  usage: 'Run a function once with an event, or with records read from Kafka as its trigger would see them; commits nothing',
  service: true,
  options: {
    function: { type: 'string', short: 'f', usage: "The function (default: the service's only one)" },
    event: { type: 'string', short: 'e', usage: 'A file with an AWS Kafka event (e.g. from generate-event), or - for stdin' },
    topic: { type: 'string', short: 't', usage: "With --offset: the topic to read (default: the trigger's)" },
    partition: { type: 'string', usage: 'With --offset: the partition (default 0)' },
    offset: { type: 'string', usage: 'Read the records from this offset, decoded and filtered as the trigger does' },
    count: { type: 'string', short: 'n', usage: 'With --offset: how many records (default 1)' },
    brokers: { type: 'string', short: 'b', usage: "host:port,… (default: the trigger's, KAFKA_BROKERS, else the local Kafka)" },
  },
  examples: [
    'npm run invoke -- -f orders --event event.json',
    'npm run -s generate-event -- -f orders --value \'{"id":1}\' | npm run invoke -- -f orders --event -',
    'npm run invoke -- -f orders --partition 1 --offset 42 --count 3',
  ],
};

export const GENERATE_EVENT: CommandSpec = {
  name: 'generate-event',
  usage: "Print a sample AWS Kafka event for a function's trigger (the shape invoke --event takes, and unit tests want)",
  service: true,
  options: {
    function: { type: 'string', short: 'f', usage: "The function (default: the service's only one)" },
    value: { type: 'string', usage: 'Each record\'s value (default {"hello":"world"})' },
    key: { type: 'string', short: 'k', usage: 'Each record\'s key (default none)' },
    count: { type: 'string', short: 'n', usage: 'How many records (default 1)' },
  },
  examples: ['npm run -s generate-event -- -f orders --value \'{"id":1}\' --count 3 > event.json'],
};

export const CREATE_TOPICS: CommandSpec = {
  name: 'create-topics',
  usage: "Create the topics the triggers read and their kafka:// destinations on the clusters they name (or one --topic); existing ones are left as they are",
  positional: 'topic',
  service: true,
  options: {
    topic: { type: 'string', short: 't', usage: "Only this topic (default: every trigger's topic and kafka:// destination)" },
    function: { type: 'string', short: 'f', usage: 'Only the topics of this function\'s triggers' },
    partitions: { type: 'string', short: 'p', usage: 'Partitions of each new topic (default 3)' },
    'replication-factor': { type: 'string', usage: "Replicas of each partition (default: the brokers' default.replication.factor)" },
    brokers: { type: 'string', short: 'b', usage: "host:port,… (default: the triggers', KAFKA_BROKERS, else the local Kafka)" },
  },
  examples: ['npm run create-topics -- --brokers b-1.example.com:9092 --partitions 6', 'npm run create-topics -- orders-replay --partitions 1'],
};
