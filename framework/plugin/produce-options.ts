/** `serverless sluice produce`'s options (plugin.ts declares them; commands.ts reads the values after them, positionals.ts). */
import type { CommandOption } from './serverless-api.ts';

export const PRODUCE_OPTIONS: Record<string, CommandOption> = {
  topic: { usage: 'Topic to send to', shortcut: 't', type: 'string', required: true },
  value: { usage: 'Send this one value (text or JSON)', type: 'string' },
  key: { usage: "The records' key", shortcut: 'k', type: 'string' },
  header: { usage: 'A header name=value (repeat the flag for more)', type: 'multiple' },
  count: { usage: 'Send this many sample records', shortcut: 'n', type: 'string' },
  file: { usage: 'JSON lines file (default: stdin)', type: 'string' },
  brokers: { usage: 'host:port,… (default: the triggers of the topic, custom.sluice, KAFKA_BROKERS, the local Kafka)', shortcut: 'b', type: 'string' },
  subject: { usage: "Write each value as a registry serializer does, with this subject's latest schema (e.g. orders-value)", type: 'string' },
  registry: { usage: "With --subject: the registry's URL (default: the topic's trigger's, SCHEMA_REGISTRY_URL, the local registry)", type: 'string' },
  message: { usage: 'With --subject and a Protobuf schema: the message type (default the first)', type: 'string' },
};
