/**
 * One chunk in flight against its two deadlines, ticking on the server's clock every 250 ms:
 * - the function's timeout: the time used since startedAt, of timeoutAt - startedAt;
 * - the poll window: the batch was fetched at fetchedAt and every chunk of it must end before
 *   pollDeadlineAt, or the member leaves the group. The shaded zone is the span this chunk may take
 *   (startedAt → timeoutAt): chunks are cut so that it ends before the window does.
 */
import type { ChunkInFlight } from '../../api-types.ts';
import { bytes, clock, duration, fullTime, offsets, plural, seconds } from '../lib/format.ts';
import { serverNow, useTicker } from '../lib/ticker.ts';

const pct = (x: number): string => `${Math.min(100, Math.max(0, x * 100)).toFixed(2)}%`;

export function deadlineLabel(chunk: ChunkInFlight, now: number): string {
  const elapsed = Math.max(0, now - chunk.startedAt);
  const timeout = chunk.timeoutAt - chunk.startedAt;
  const pollLeft = chunk.pollDeadlineAt - now;
  const used = elapsed > timeout ? `${seconds(elapsed)}, past its ${duration(timeout)} timeout` : `${seconds(elapsed)} of ${duration(timeout)} timeout`;
  const poll = pollLeft >= 0 ? `poll deadline in ${duration(pollLeft)}` : `poll deadline passed ${duration(-pollLeft)} ago`;
  return `${used} · ${poll}`;
}

export function InFlightChunk({ chunk, offset }: { chunk: ChunkInFlight; offset: number }) {
  useTicker();
  const now = serverNow(offset);
  const elapsed = Math.max(0, now - chunk.startedAt);
  const timeout = Math.max(1, chunk.timeoutAt - chunk.startedAt);
  const used = elapsed / timeout;
  const tone = used >= 1 || now > chunk.pollDeadlineAt ? 'danger' : used >= 0.75 ? 'warn' : 'ok';
  const window = Math.max(1, chunk.pollDeadlineAt - chunk.fetchedAt);
  const at = (t: number): number => (t - chunk.fetchedAt) / window;
  const zoneEnd = Math.min(1, at(chunk.timeoutAt));
  const label = deadlineLabel(chunk, now);

  return (
    <div class={`chunk chunk--${tone}`}>
      <div class="chunk-head">
        <strong>offsets {offsets(chunk.firstOffset, chunk.lastOffset)}</strong>
        <span>{plural(chunk.count, 'record')}</span>
        <span>{bytes(chunk.bytes)}</span>
        <span class={chunk.attempt > 1 ? 'retry' : undefined}>attempt {chunk.attempt}</span>
        <span class="muted" title={fullTime(chunk.startedAt)}>
          started {clock(chunk.startedAt)}
        </span>
      </div>
      <div class="bars">
        <span class="bar-name">timeout</span>
        <div
          class="bar"
          role="meter"
          aria-label="Time used of the function's timeout"
          aria-valuemin={0}
          aria-valuemax={timeout}
          aria-valuenow={Math.min(elapsed, timeout)}
          aria-valuetext={`${seconds(elapsed)} of ${duration(timeout)}`}
        >
          <div class="bar-fill" style={{ width: pct(used) }} />
        </div>
        <span class="bar-name" title="From the fetch of the batch to the poll deadline (max.poll.interval less a margin)">
          poll window
        </span>
        <div
          class="bar bar--poll"
          role="meter"
          aria-label="Poll window used, from the fetch to the poll deadline"
          aria-valuemin={0}
          aria-valuemax={window}
          aria-valuenow={Math.min(Math.max(0, now - chunk.fetchedAt), window)}
          aria-valuetext={`poll deadline in ${duration(chunk.pollDeadlineAt - now)}`}
        >
          <div class="bar-zone" style={{ left: pct(at(chunk.startedAt)), width: pct(zoneEnd - at(chunk.startedAt)) }} title="This chunk's timeout window" />
          <div class="bar-fill" style={{ left: pct(at(chunk.startedAt)), width: pct(at(now) - at(chunk.startedAt)) }} />
          <div class="bar-mark" style={{ left: pct(zoneEnd) }} title={`timeout at ${clock(chunk.timeoutAt)}`} />
        </div>
      </div>
      <div class="chunk-label" data-testid="deadline">
        {label}
      </div>
      {chunk.timeoutAt > chunk.pollDeadlineAt && (
        <div class="chunk-warn">Its timeout ends after the poll deadline: a run this long would cost the member its group.</div>
      )}
    </div>
  );
}
