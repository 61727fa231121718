/**
 * Replay: the invocation's event as editable JSON, run again through POST /api/replay (nothing is
 * committed). A JSON syntax error is shown here and nothing is sent; the answer (another
 * InvocationDetail) shows its outcome, response or error, and logs, with a link to its own page.
 * Ctrl/⌘+Enter in the editor runs it.
 */
import { useState } from 'preact/hooks';
import type { InvocationDetail } from '../../api-types.ts';
import { errorText, postJson } from '../lib/api.ts';
import { duration } from '../lib/format.ts';
import { invocationHref } from '../lib/route.ts';
import { prettyJson } from '../lib/visible.ts';
import { OutcomeBadge } from './Badge.tsx';
import { ErrorBlock, JsonBlock } from './Blocks.tsx';
import { LogLines } from './LogLines.tsx';

type Run = { state: 'idle' } | { state: 'running' } | { state: 'done'; result: InvocationDetail } | { state: 'failed'; error: string };

function ReplayResult({ run }: { run: Run }) {
  if (run.state === 'idle') return null;
  if (run.state === 'running') return <p role="status">Running the handler…</p>;
  if (run.state === 'failed') {
    return (
      <p class="error-note" role="alert">
        Replay refused: {run.error}
      </p>
    );
  }
  const r = run.result;
  return (
    <>
      <p class="replay-summary">
        <OutcomeBadge outcome={r.outcome} /> {r.durationMs !== undefined && <>in {duration(r.durationMs)} </>}·{' '}
        <a href={invocationHref(r.id)}>open this replay's detail</a>
      </p>
      {r.response !== undefined && (
        <>
          <h4>Response</h4>
          <JsonBlock value={r.response} testid="replay-response" />
        </>
      )}
      <ErrorBlock inv={r} testid="replay-error" />
      <h4>Logs</h4>
      <LogLines logs={r.logs} truncated={r.logsTruncated} testid="replay-logs" />
    </>
  );
}

export function ReplayPanel({ detail }: { detail: InvocationDetail }) {
  const original = detail.event == null ? '' : prettyJson(detail.event);
  const [text, setText] = useState(original);
  const [parseError, setParseError] = useState<string | null>(null);
  const [run, setRun] = useState<Run>({ state: 'idle' });

  const replay = async (): Promise<void> => {
    let event: unknown;
    try {
      event = JSON.parse(text);
    } catch (err) {
      setParseError(errorText(err));
      return;
    }
    setParseError(null);
    setRun({ state: 'running' });
    try {
      const result = await postJson<InvocationDetail>('/api/replay', { function: detail.function, event });
      setRun({ state: 'done', result });
    } catch (err) {
      setRun({ state: 'failed', error: errorText(err) });
    }
  };

  return (
    <section class="panel replay" aria-labelledby="replay-title">
      <h3 id="replay-title">Replay</h3>
      <p class="muted">
        Runs <strong>{detail.function}</strong> again with this event, edited or not. Nothing is committed.
        {detail.event == null && ' The event was dropped from the history: paste one to run.'}
      </p>
      <label class="visually-hidden" for="replay-editor">
        Event JSON
      </label>
      <textarea
        id="replay-editor"
        data-testid="replay-editor"
        class="code"
        spellcheck={false}
        rows={Math.min(24, Math.max(8, original.split('\n').length))}
        value={text}
        aria-invalid={parseError !== null}
        aria-describedby={parseError ? 'replay-parse-error' : undefined}
        onInput={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void replay();
          }
        }}
      />
      {parseError && (
        <p id="replay-parse-error" class="field-error" role="alert" data-testid="replay-parse-error">
          Not valid JSON: {parseError}
        </p>
      )}
      <div class="actions">
        <button type="button" class="primary" data-testid="replay-run" disabled={run.state === 'running'} onClick={() => void replay()}>
          {run.state === 'running' ? 'Running…' : 'Replay'}
        </button>
        <button type="button" disabled={text === original} onClick={() => (setText(original), setParseError(null))}>
          Reset the event
        </button>
        <span class="muted hint">Ctrl+Enter runs it</span>
      </div>
      <div class="replay-result" data-testid="replay-result" aria-live="polite">
        <ReplayResult run={run} />
      </div>
    </section>
  );
}
