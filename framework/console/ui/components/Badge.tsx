/** Coloured badges for trigger status, partition state, invocation outcome and timeline kinds. */
import type { ComponentChildren } from 'preact';
import type { Outcome, PartitionView, TimelineEntry, TriggerStatus } from '../../api-types.ts';

export type Tone = 'ok' | 'info' | 'warn' | 'danger' | 'neutral';

export function Badge({ tone, children, title }: { tone: Tone; children: ComponentChildren; title?: string | undefined }) {
  return (
    <span class={`badge badge--${tone}`} title={title}>
      {children}
    </span>
  );
}

const STATUS: Record<TriggerStatus, Tone> = {
  running: 'ok',
  starting: 'info',
  rebalancing: 'info',
  restarting: 'warn',
  held: 'warn',
  stalled: 'danger',
  failed: 'danger',
};

const STATE: Record<PartitionView['state'], Tone> = {
  'caught-up': 'ok',
  progressing: 'info',
  held: 'warn',
  stuck: 'danger',
};

const OUTCOME: Record<Outcome, Tone> = { ok: 'ok', running: 'info', partial: 'warn', failed: 'danger' };

const KIND: Record<TimelineEntry['kind'], Tone> = {
  joined: 'ok',
  rebalanced: 'ok',
  rebalancing: 'info',
  revoked: 'warn',
  restarted: 'warn',
  stopped: 'neutral',
  failed: 'danger',
};

export const StatusBadge = ({ status }: { status: TriggerStatus }) => <Badge tone={STATUS[status] ?? 'neutral'}>{status}</Badge>;

export const StateBadge = ({ state }: { state: PartitionView['state'] }) => <Badge tone={STATE[state] ?? 'neutral'}>{state}</Badge>;

export const OutcomeBadge = ({ outcome, title }: { outcome: Outcome; title?: string | undefined }) => (
  <Badge tone={OUTCOME[outcome] ?? 'neutral'} title={title}>
    {outcome}
  </Badge>
);

export const KindBadge = ({ kind }: { kind: TimelineEntry['kind'] }) => <Badge tone={KIND[kind] ?? 'neutral'}>{kind}</Badge>;
