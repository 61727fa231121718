/** Pre-formatted blocks of an invocation: pretty JSON, and an error with its stack. */
import type { InvocationDetail } from '../../api-types.ts';
import { prettyJson } from '../lib/visible.ts';
import { Txt } from './Text.tsx';

export function JsonBlock({ value, testid }: { value: unknown; testid: string }) {
  return (
    <pre class="block json" data-testid={testid}>
      <Txt s={prettyJson(value)} multiline />
    </pre>
  );
}

/** The error's stack (which starts with name: message) or, without one, name: message or the line. */
export function errorText(inv: Pick<InvocationDetail, 'error' | 'errorDetail'>): string | undefined {
  const d = inv.errorDetail;
  if (d) return d.stack && d.stack.trim() !== '' ? d.stack : `${d.name}: ${d.message}`;
  return inv.error;
}

export function ErrorBlock({ inv, testid }: { inv: Pick<InvocationDetail, 'error' | 'errorDetail'>; testid: string }) {
  const text = errorText(inv);
  if (text === undefined) return null;
  return (
    <div class="error-block">
      {inv.errorDetail && (
        <p class="error-kind">
          <span class="tag">{inv.errorDetail.kind}</span> <Txt s={inv.errorDetail.name} />
        </p>
      )}
      <pre class="block error" data-testid={testid}>
        <Txt s={text} multiline />
      </pre>
    </div>
  );
}
