/**
 * One trigger: function ← topic, its status (and why), its settings (what every chunk is cut to
 * fit), its totals, the throughput and lag charts, and its partitions.
 */
import type { TriggerView } from '../../api-types.ts';
import { count, duration } from '../lib/format.ts';
import { StatusBadge } from './Badge.tsx';
import { PartitionTable } from './PartitionTable.tsx';
import { Txt } from './Text.tsx';
import { LagChart, ThroughputChart } from './TriggerCharts.tsx';

export function TriggerCard({ trigger: t, offset, now }: { trigger: TriggerView; offset: number; now: number }) {
  // A function may have a trigger per topic: the id names both.
  const titleId = `trigger-title-${`${t.function}-${t.topic}`.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const invocationsHref = `#/invocations?function=${encodeURIComponent(t.function)}`;
  return (
    <section class="card trigger" data-testid={`trigger-${t.function}`} aria-labelledby={titleId}>
      <header class="card-head">
        <h2 id={titleId}>
          <Txt s={t.function} /> <span class="arrow" aria-label="reads from">←</span> <span class="topic"><Txt s={t.topic} /></span>
        </h2>
        <div class="status">
          <StatusBadge status={t.status} />
          {t.reason && (
            <div class="reason" data-testid="status-reason">
              <Txt s={t.reason} />
            </div>
          )}
        </div>
      </header>
      <dl class="facts">
        <div><dt>group</dt><dd><Txt s={t.group} /></dd></div>
        <div><dt>engine</dt><dd>{t.consumptionMode === 'queue' ? 'share client' : t.engine}</dd></div>
        <div><dt>mode</dt><dd data-testid="consumption-mode">{t.consumptionMode === 'queue' ? 'queue (share group)' : 'stream'}</dd></div>
        <div><dt>timeout</dt><dd>{duration(t.timeoutMs)}</dd></div>
        <div><dt>poll interval</dt><dd>{duration(t.maxPollIntervalMs)}</dd></div>
        <div><dt>batch size</dt><dd>{count(t.batchSize)}</dd></div>
        {t.consumptionMode === 'stream' && <div><dt>parallelization</dt><dd>{t.parallelizationFactor}</dd></div>}
        <div><dt>destination</dt><dd>{t.destination ? <Txt s={t.destination} /> : <span class="muted">none</span>}</dd></div>
        <div><dt>restarts</dt><dd class={t.restarts > 0 ? 'warn-text' : undefined}>{count(t.restarts)}</dd></div>
        <div><dt>invocations</dt><dd><a href={invocationsHref}>{count(t.totals.invocations)}</a></dd></div>
        <div><dt>records</dt><dd>{count(t.totals.records)}</dd></div>
        <div>
          <dt>failed</dt>
          <dd>
            {t.totals.failed > 0 ? (
              <a class="danger-text" href={`${invocationsHref}&outcome=failed`}>{count(t.totals.failed)}</a>
            ) : (
              '0'
            )}
          </dd>
        </div>
        {t.memberId && <div class="member"><dt>member</dt><dd><Txt s={t.memberId} /></dd></div>}
      </dl>
      <div class="charts">
        <ThroughputChart trigger={t} />
        <LagChart trigger={t} now={now} />
      </div>
      <PartitionTable trigger={t} offset={offset} />
    </section>
  );
}
