/**
 * Redrive a destination's records back to their source topic (POST /api/redrive), behind an inline
 * confirm: `redrive-<function>` asks, then `redrive-confirm` sends (or `redrive-cancel`). The result's summary line is shown as it comes.
 */
import { useState } from 'preact/hooks';
import type { RedriveResult } from '../../api-types.ts';
import { errorText, postJson } from '../lib/api.ts';
import { plural } from '../lib/format.ts';
import { Txt } from './Text.tsx';

interface Props {
  fn: string;
  /** The trigger's source topic: a function may have a trigger (and destination) per topic. */
  topic: string;
  records: number;
  /** "200+" when the page only sees the newest records. */
  more: boolean;
  target: string;
  onDone: () => void;
}

type State = { step: 'idle' } | { step: 'confirm' } | { step: 'sending' } | { step: 'done'; result: RedriveResult } | { step: 'failed'; error: string };

export function RedriveButton({ fn, topic, records, more, target, onDone }: Props) {
  const [state, setState] = useState<State>({ step: 'idle' });
  const what = `${plural(records, 'record')}${more ? '+' : ''} to ${target}`;

  const redrive = async (): Promise<void> => {
    setState({ step: 'sending' });
    try {
      const result = await postJson<RedriveResult>('/api/redrive', { function: fn, topic });
      setState({ step: 'done', result });
      onDone();
    } catch (err) {
      setState({ step: 'failed', error: errorText(err) });
    }
  };

  return (
    <div class="redrive">
      {state.step === 'confirm' ? (
        <span class="confirm" role="group" aria-label="Confirm the redrive">
          <button type="button" class="danger" data-testid="redrive-confirm" onClick={() => void redrive()} autoFocus>
            Confirm: redrive {what}
          </button>
          <button type="button" data-testid="redrive-cancel" onClick={() => setState({ step: 'idle' })}>
            Cancel
          </button>
        </span>
      ) : (
        <button
          type="button"
          data-testid={`redrive-${fn}`}
          disabled={records === 0 || state.step === 'sending'}
          onClick={() => setState({ step: 'confirm' })}
          title={records === 0 ? 'No record here was written by Sluice' : undefined}
        >
          {state.step === 'sending' ? 'Redriving…' : records === 0 ? 'Nothing to redrive' : `Redrive ${what}`}
        </button>
      )}
      {(state.step === 'done' || state.step === 'failed') && (
        <p class={state.step === 'failed' ? 'error-note' : 'ok-note'} data-testid="redrive-result" role="status">
          {state.step === 'done' ? (
            <>
              <Txt s={state.result.summary} />.
              {/* The button still offers them: what a second press does is said before it is pressed. */}
              {state.result.sent > 0 && <span class="muted" data-testid="redrive-again"> They stay in the destination (a redrive copies, it does not remove): redriving again sends them again.</span>}
            </>
          ) : (
            <>Redrive refused: {state.error}</>
          )}
        </p>
      )}
    </div>
  );
}
