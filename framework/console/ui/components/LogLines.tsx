/** A handler's log lines, level-coloured, with their invisible characters shown. */
import type { LogLine } from '../../api-types.ts';
import { clock, fullTime } from '../lib/format.ts';
import { Txt } from './Text.tsx';

interface Props {
  logs: LogLine[];
  truncated?: boolean | undefined;
  testid: string;
}

export function LogLines({ logs, truncated, testid }: Props) {
  return (
    <div class="logs" data-testid={testid}>
      {logs.length === 0 ? (
        <p class="muted">The handler wrote no log lines.</p>
      ) : (
        <ol class="log-lines">
          {logs.map((line, i) => (
            <li key={i} class={`log log--${line.level}`}>
              <span class="log-time" title={fullTime(line.t)}>
                {clock(line.t)}
              </span>
              <span class="log-level">{line.level}</span>
              <span class="log-text">
                <Txt s={line.text} multiline />
              </span>
            </li>
          ))}
        </ol>
      )}
      {truncated && (
        <p class="note" data-testid="logs-truncated">
          Truncated: the history keeps the first 500 lines of an invocation, each up to 8 KiB.
        </p>
      )}
    </div>
  );
}
