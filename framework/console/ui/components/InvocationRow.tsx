/**
 * One invocation in the list: a focusable row that opens its detail on click or Enter (the time is
 * also a real link, for a new tab). Arrow keys move between rows (see InvocationsView).
 */
import type { InvocationSummary } from '../../api-types.ts';
import { clock, count, duration, fullTime, offsets, topicPartition } from '../lib/format.ts';
import { go, invocationHref } from '../lib/route.ts';
import { OutcomeBadge } from './Badge.tsx';
import { Key, Txt } from './Text.tsx';

function outcomeTitle(inv: InvocationSummary): string | undefined {
  if (inv.outcome === 'partial' && inv.reportedFailedFrom !== undefined) return `the handler reported offset ${inv.reportedFailedFrom} failed`;
  return undefined;
}

export function InvocationRow({ inv }: { inv: InvocationSummary }) {
  const href = invocationHref(inv.id);
  const open = (): void => go(href);
  return (
    <tr
      class={`inv-row inv--${inv.outcome}`}
      data-testid="invocation-row"
      data-id={inv.id}
      data-outcome={inv.outcome}
      tabIndex={0}
      onClick={(e) => {
        if (!(e.target instanceof HTMLAnchorElement)) open();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          open();
        }
      }}
    >
      <td class="time">
        <a href={href} tabIndex={-1} title={fullTime(inv.startedAt)}>
          {clock(inv.startedAt)}
        </a>
      </td>
      <td>
        <Txt s={inv.function} />
      </td>
      <td>
        <Txt s={topicPartition(inv.topic, inv.partition)} />
      </td>
      <td class="num">{offsets(inv.firstOffset, inv.lastOffset)}</td>
      <td class="num">{count(inv.count)}</td>
      <td class={`num ${inv.attempt > 1 ? 'retry' : ''}`}>{inv.attempt}</td>
      <td class="num">{inv.durationMs === undefined ? <span class="muted">running…</span> : duration(inv.durationMs)}</td>
      <td>
        <OutcomeBadge outcome={inv.outcome} title={outcomeTitle(inv)} />
        {inv.replay && <span class="tag" data-testid="replay-tag">replay</span>}
      </td>
      <td class="keys">
        {inv.keys.length === 0 ? (
          <span class="muted">—</span>
        ) : (
          inv.keys.map((k, i) => (
            <span key={i}>
              {i > 0 && ' '}
              <Key k={k} />
            </span>
          ))
        )}
        {inv.count > inv.keys.length && inv.keys.length > 0 && <span class="muted"> …</span>}
        {inv.error && (
          <div class="row-error">
            <Txt s={inv.error} />
          </div>
        )}
      </td>
    </tr>
  );
}
