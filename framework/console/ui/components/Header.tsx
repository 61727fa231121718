/**
 * The page's header: service and stage, the mode (a read-only badge), the live indicator (`live`
 * while the EventSource is open, `reconnecting…` otherwise) and the tabs.
 */
import type { Overview } from '../../api-types.ts';
import type { Route } from '../lib/route.ts';
import { Txt } from './Text.tsx';

interface Tab {
  href: string;
  label: string;
  active: (route: Route) => boolean;
  writes?: boolean;
}

const TABS: Tab[] = [
  { href: '#/', label: 'Triggers', active: (r) => r.name === 'triggers' },
  { href: '#/invocations', label: 'Invocations', active: (r) => r.name === 'invocations' || r.name === 'invocation' },
  { href: '#/failures', label: 'Failures', active: (r) => r.name === 'failures' },
  { href: '#/send', label: 'Send', active: (r) => r.name === 'send', writes: true },
  { href: '#/timeline', label: 'Timeline', active: (r) => r.name === 'timeline' },
];

interface Props {
  overview: Overview | null;
  connected: boolean;
  route: Route;
}

export function Header({ overview, connected, route }: Props) {
  const readOnly = overview?.mode === 'read-only';
  return (
    <header class="top">
      <div class="brand">
        <a class="logo" href="#/">
          Sluice
        </a>
        {overview && (
          <span class="service" data-testid="service">
            <Txt s={overview.service} /> <span class="muted">/</span> <Txt s={overview.stage} />
          </span>
        )}
        {readOnly && (
          <span class="badge badge--warn mode" data-testid="mode" title="Replay, send and redrive are off">
            read-only
          </span>
        )}
      </div>
      <nav class="tabs" aria-label="Views">
        {TABS.filter((tab) => !(tab.writes && readOnly)).map((tab) => (
          <a key={tab.href} href={tab.href} class="tab" aria-current={tab.active(route) ? 'page' : undefined}>
            {tab.label}
          </a>
        ))}
      </nav>
      <span class={`live ${connected ? 'live--on' : 'live--off'}`} data-testid="live-status" role="status">
        {connected ? 'live' : 'reconnecting…'}
      </span>
    </header>
  );
}
