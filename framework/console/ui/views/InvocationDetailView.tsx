/**
 * #/invocations/<id> — one invocation: its summary, error and stack, logs, response, the exact
 * event, and (unless read-only) Replay. Fetched again when the live stream says it changed (a
 * running invocation ending). Esc goes back to the list.
 */
import { useEffect } from 'preact/hooks';
import type { InvocationDetail, InvocationSummary } from '../../api-types.ts';
import { OutcomeBadge } from '../components/Badge.tsx';
import { ErrorBlock, JsonBlock } from '../components/Blocks.tsx';
import { Empty, ErrorNote, Loading } from '../components/Empty.tsx';
import { LogLines } from '../components/LogLines.tsx';
import { ReplayPanel } from '../components/ReplayPanel.tsx';
import { Key, Txt } from '../components/Text.tsx';
import { clock, count, duration, fullTime, offsets, topicPartition } from '../lib/format.ts';
import { hasModifier, isTyping } from '../lib/keys.ts';
import { go, lastListHref } from '../lib/route.ts';
import { useJson } from '../lib/use-json.ts';

interface Props {
  id: string;
  /** The list's copy of it, if the page has one: when it changes, the detail is fetched again. */
  summary: InvocationSummary | undefined;
  canWrite: boolean;
  historySize: number | undefined;
}

function Summary({ d }: { d: InvocationDetail }) {
  return (
    <dl class="facts">
      <div><dt>started</dt><dd title={fullTime(d.startedAt)}>{clock(d.startedAt)}</dd></div>
      <div><dt>duration</dt><dd>{d.durationMs === undefined ? 'running…' : duration(d.durationMs)}</dd></div>
      <div><dt>topic-partition</dt><dd><Txt s={topicPartition(d.topic, d.partition)} /></dd></div>
      <div><dt>offsets</dt><dd>{offsets(d.firstOffset, d.lastOffset)}</dd></div>
      <div><dt>records</dt><dd>{count(d.count)}</dd></div>
      <div><dt>attempt</dt><dd class={d.attempt > 1 ? 'retry' : undefined}>{d.attempt}</dd></div>
      {d.requestId && <div><dt>request id</dt><dd><code><Txt s={d.requestId} /></code></dd></div>}
      {d.reportedFailedFrom !== undefined && <div><dt>reported failed from</dt><dd>offset {d.reportedFailedFrom}</dd></div>}
      <div class="wide">
        <dt>keys</dt>
        <dd class="keys">
          {d.keys.length === 0 ? <span class="muted">none</span> : d.keys.map((k, i) => <span key={i}>{i > 0 && ' '}<Key k={k} /></span>)}
          {d.count > d.keys.length && d.keys.length > 0 && <span class="muted"> (the first {d.keys.length})</span>}
        </dd>
      </div>
    </dl>
  );
}

export function InvocationDetailView({ id, summary, canWrite, historySize }: Props) {
  const refresh = summary ? `${summary.outcome}/${summary.durationMs ?? ''}` : '';
  const { data: d, error, status } = useJson<InvocationDetail>(`/api/invocations/${encodeURIComponent(id)}`, refresh);

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape' || hasModifier(e)) return;
      if (isTyping(e.target)) (e.target as HTMLElement).blur();
      else go(lastListHref());
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);

  const back = (
    <nav class="crumbs" aria-label="Breadcrumb">
      <a href={lastListHref()}>← Invocations</a> <span class="muted hint">Esc</span>
    </nav>
  );
  if (!d) {
    return (
      <div data-testid="invocation-detail">
        {back}
        {status === 404 ? (
          <Empty>
            This invocation is no longer in the history{historySize ? ` (each trigger keeps its last ${count(historySize)})` : ''}.
          </Empty>
        ) : error ? (
          <ErrorNote>Could not load the invocation: {error}</ErrorNote>
        ) : (
          <Loading what="the invocation" />
        )}
      </div>
    );
  }
  return (
    <article class="detail" data-testid="invocation-detail" data-outcome={d.outcome}>
      {back}
      <header class="view-head">
        <h1>
          <Txt s={d.function} /> <span class="muted">·</span> <Txt s={topicPartition(d.topic, d.partition)} />@{offsets(d.firstOffset, d.lastOffset)}
        </h1>
        <OutcomeBadge outcome={d.outcome} />
        {d.replay && <span class="tag">replay</span>}
      </header>
      {error && <ErrorNote>Could not refresh: {error}</ErrorNote>}
      <Summary d={d} />
      {(d.errorDetail || d.error) && (
        <section class="panel">
          <h2>Error</h2>
          <ErrorBlock inv={d} testid="error" />
        </section>
      )}
      <section class="panel">
        <h2>Logs</h2>
        {d.detailDropped && <p class="note" data-testid="detail-dropped"><Txt s={d.detailDropped} /></p>}
        <LogLines logs={d.logs} truncated={d.logsTruncated} testid="logs" />
      </section>
      {d.response !== undefined && (
        <section class="panel">
          <h2>Response</h2>
          <JsonBlock value={d.response} testid="response-json" />
        </section>
      )}
      <div class={canWrite ? 'detail-grid' : undefined}>
        <section class="panel">
          <h2>Event</h2>
          {d.event == null ? (
            <pre class="block note" data-testid="event-json">
              <Txt s={d.eventDropped ?? 'The event is not kept.'} multiline />
            </pre>
          ) : (
            <JsonBlock value={d.event} testid="event-json" />
          )}
        </section>
        {canWrite && <ReplayPanel key={d.id} detail={d} />}
      </div>
    </article>
  );
}
