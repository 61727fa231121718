/** The empty, loading and error states of a view or a section. */
import type { ComponentChildren } from 'preact';

export function Empty({ children, testid }: { children: ComponentChildren; testid?: string }) {
  return (
    <div class="empty" data-testid={testid}>
      {children}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="loading" role="status">
      Loading {what}…
    </p>
  );
}

export function ErrorNote({ children, testid }: { children: ComponentChildren; testid?: string }) {
  return (
    <p class="error-note" role="alert" data-testid={testid}>
      {children}
    </p>
  );
}
