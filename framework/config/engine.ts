/**
 * Pure: which Kafka client a trigger's member runs on, and how it joins its group (issue 29).
 * `engine` is kafkajs (the default, the classic group protocol only) or librdkafka
 * (@confluentinc/kafka-javascript: KIP-848's consumer protocol, static membership). The trigger's
 * own value wins over `custom.sluice`'s. What an engine cannot do is refused here, naming the
 * setting and what to change, rather than at the first rebalance.
 */
import { ConfigError } from '../errors.ts';
import type { TriggerSpec } from './types.ts';

export const ENGINES = ['kafkajs', 'librdkafka'] as const;
export const GROUP_PROTOCOLS = ['consumer', 'classic'] as const;
export type Engine = (typeof ENGINES)[number];
export type GroupProtocol = (typeof GROUP_PROTOCOLS)[number];

/** A Kafka group.instance.id: what Kafka accepts in a group id, up to 249 characters. */
export const GROUP_INSTANCE_ID = /^[A-Za-z0-9._-]{1,249}$/;

export interface EngineInput {
  engine?: Engine;
  groupProtocol?: GroupProtocol;
  groupInstanceId?: string;
}

export type EngineSettings = Pick<TriggerSpec, 'engine' | 'groupProtocol'> & Partial<Pick<TriggerSpec, 'groupInstanceId'>>;

export function engineSettings(
  event: EngineInput,
  service: Omit<EngineInput, 'groupInstanceId'> | undefined,
  path: string,
): { settings: EngineSettings; problems: string[] } {
  const engine = event.engine ?? service?.engine ?? 'kafkajs';
  const where = event.engine !== undefined ? path : service?.engine !== undefined ? 'custom.sluice' : undefined;
  const named = (p: string) => (where ? `engine ${engine} (${where === path ? 'this trigger' : where})` : 'the default engine, kafkajs,');
  // KIP-848 on the engine that has it; kafkajs has only the classic protocol.
  const groupProtocol = event.groupProtocol ?? service?.groupProtocol ?? (engine === 'librdkafka' ? 'consumer' : 'classic');
  const problems: string[] = [];
  if (engine === 'kafkajs' && groupProtocol === 'consumer') {
    problems.push(
      `${path}: groupProtocol consumer (KIP-848) needs engine: librdkafka; ${named(path)} speaks only the classic group protocol. ` +
        'Set engine: librdkafka on the trigger or in custom.sluice, or groupProtocol: classic.',
    );
  }
  if (event.groupInstanceId !== undefined && engine === 'kafkajs') {
    problems.push(`${path}.groupInstanceId: static membership needs engine: librdkafka; ${named(path)} cannot keep a member's partitions across a restart. Set engine: librdkafka, or remove groupInstanceId.`);
  }
  if (event.groupInstanceId !== undefined && !GROUP_INSTANCE_ID.test(event.groupInstanceId)) {
    problems.push(`${path}.groupInstanceId: "${event.groupInstanceId}" is not a group.instance.id: 1–249 letters, digits, ".", "_" or "-". Derive it per task or pod, e.g. \${env:HOSTNAME}.`);
  }
  const settings: EngineSettings = { engine, groupProtocol, ...(event.groupInstanceId !== undefined ? { groupInstanceId: event.groupInstanceId } : {}) };
  return { settings, problems };
}

/** Where a deployed poller reads its static member's id: one per task or pod, unlike serverless.yml. */
export const INSTANCE_ID_ENV = 'SLUICE_GROUP_INSTANCE_ID';

/**
 * The poller's own `groupInstanceId` from its environment (INSTANCE_ID_ENV: on a Kubernetes
 * StatefulSet the pod's name) for its librdkafka triggers; an id is per group, so one value
 * serves every trigger. kafkajs triggers are left as they are and named in `ignored`.
 */
export function withInstanceId<T extends Pick<TriggerSpec, 'engine' | 'path'> & { groupInstanceId?: string }>(triggers: T[], value: string | undefined): { triggers: T[]; ignored: string[] } {
  if (value === undefined || value === '') return { triggers, ignored: [] };
  if (!GROUP_INSTANCE_ID.test(value)) {
    throw new ConfigError(`${INSTANCE_ID_ENV}: "${value}" is not a group.instance.id: 1–249 letters, digits, ".", "_" or "-" (on a StatefulSet, the pod's name is).`);
  }
  return {
    triggers: triggers.map((t) => (t.engine === 'librdkafka' ? { ...t, groupInstanceId: value } : t)),
    ignored: triggers.filter((t) => t.engine !== 'librdkafka').map((t) => t.path),
  };
}
