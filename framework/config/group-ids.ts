/**
 * Pure: consumer group ids. Every trigger needs a group of its own (AWS requires an id unique
 * among all Kafka event sources): two triggers in one group split one subscription between
 * them, and kafkajs's assigner only assigns the leader's own topics, so one topic goes
 * unconsumed with no error.
 */
import type { TriggerSpec } from './types.ts';

/** AWS's pattern for a Kafka event source's consumer group id. */
export const GROUP_ID_PATTERN = /^[a-zA-Z0-9\-/*:_+=.@]{1,200}$/;

/**
 * `sluice-<service>-<function>`, the id a function with one trigger always had (so existing
 * groups keep their offsets); a function with several triggers gets `-<topic>` on each.
 */
export function defaultGroupId(service: string, functionName: string, topic: string, triggersOfFunction: number): string {
  const base = `sluice-${service}-${functionName}`;
  return triggersOfFunction > 1 ? `${base}-${topic}` : base;
}

/** One line for each default id AWS would refuse (too long, or a character it does not allow). */
export function defaultGroupIdProblem(id: string, path: string): string | undefined {
  if (GROUP_ID_PATTERN.test(id)) return undefined;
  const why = id.length > 200 ? `is ${id.length} characters (at most 200)` : 'has characters other than letters, digits and -/*:_+=.@';
  return `${path}: the default consumer group id "${id}" ${why}. Set consumerGroupId on this trigger.`;
}

/** One line per group id that more than one enabled trigger uses, naming every path and the fix. */
export function duplicateGroupIds(triggers: readonly Pick<TriggerSpec, 'consumerGroupId' | 'enabled' | 'path'>[]): string[] {
  const byId = new Map<string, string[]>();
  for (const t of triggers) if (t.enabled) byId.set(t.consumerGroupId, [...(byId.get(t.consumerGroupId) ?? []), t.path]);
  return [...byId]
    .filter(([, paths]) => paths.length > 1)
    .map(
      ([id, paths]) =>
        `${paths.join(' and ')}: all use consumer group "${id}"; each trigger needs a group of its own ` +
        '(in one group they would split the partitions between them and leave records unconsumed). ' +
        'Give each a different consumerGroupId.',
    );
}

/**
 * A function reads a topic through one trigger: the poller's events, /metrics, /healthz and the
 * console tell a function's triggers apart by topic, so two on one topic (a stream and a queue
 * trigger side by side while moving to queue mode) would be counted, shown and stalled as one.
 */
export function duplicateTopicsOfFunction(triggers: readonly Pick<TriggerSpec, 'functionName' | 'topic' | 'enabled' | 'path'>[]): string[] {
  const byKey = new Map<string, string[]>();
  for (const t of triggers) if (t.enabled) byKey.set(`${t.functionName}\u0000${t.topic}`, [...(byKey.get(`${t.functionName}\u0000${t.topic}`) ?? []), t.path]);
  return [...byKey]
    .filter(([, paths]) => paths.length > 1)
    .map(([key, paths]) => {
      const [fn, topic] = key.split('\u0000');
      return (
        `${paths.join(' and ')}: function "${fn}" reads topic "${topic}" twice; Sluice tells a function's triggers apart by topic (its events, /metrics, the console). ` +
        'Keep one, or give the other its own function (the same handler under a second name), e.g. while moving a topic to queue mode.'
      );
    });
}
