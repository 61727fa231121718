/**
 * Untrusted text, rendered as text with its invisible characters shown as highlighted `\u{..}`
 * escapes (see lib/visible.ts). Use it for anything a record or a handler produced.
 */
import { visibleParts } from '../lib/visible.ts';

export function Txt({ s, multiline = false }: { s: string | null | undefined; multiline?: boolean }) {
  const parts = visibleParts(s ?? '', multiline);
  if (parts.length === 1 && !parts[0]!.escaped) return <>{parts[0]!.text}</>;
  return (
    <>
      {parts.map((part, i) =>
        part.escaped ? (
          <span key={i} class="ctl" title="invisible or control character">
            {part.text}
          </span>
        ) : (
          part.text
        ),
      )}
    </>
  );
}

/** A record key: its text, or a muted "no key" for null. */
export function Key({ k }: { k: string | null | undefined }) {
  if (k === null || k === undefined) return <span class="muted">no key</span>;
  if (k === '') return <span class="muted">empty key</span>;
  return (
    <code class="key">
      <Txt s={k} />
    </code>
  );
}
