/** #/timeline — the consumer groups' membership changes, newest first. */
import type { Overview } from '../../api-types.ts';
import { KindBadge } from '../components/Badge.tsx';
import { Empty } from '../components/Empty.tsx';
import { Txt } from '../components/Text.tsx';
import { clock, fullTime } from '../lib/format.ts';

export function TimelineView({ overview }: { overview: Overview }) {
  return (
    <div class="timeline-view">
      <div class="view-head">
        <h1>Timeline</h1>
        <span class="muted">group membership changes, newest first</span>
      </div>
      {overview.timeline.length === 0 ? (
        <Empty testid="timeline-empty">Nothing has happened to the groups yet — joins, rebalances and restarts show here as they happen.</Empty>
      ) : (
        <ol class="timeline">
          {overview.timeline.map((e, i) => (
            <li key={overview.timeline.length - i} data-testid="timeline-entry" class={`tl tl--${e.kind}`}>
              <span class="time" title={fullTime(e.t)}>{clock(e.t)}</span>
              <span class="tl-fn"><Txt s={e.function} /></span>
              <span class="tl-group muted"><Txt s={e.group} /></span>
              <KindBadge kind={e.kind} />
              <span class="tl-text"><Txt s={e.text} /></span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
