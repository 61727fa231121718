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
