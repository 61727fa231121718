/**
 * The console page: the live state (overview, invocations, connection), the hash route, and the
 * view it names. Replay, send and redrive appear only once the overview says `read-write`.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import type { Overview } from '../api-types.ts';
import { Header } from './components/Header.tsx';
import { Empty, ErrorNote, Loading } from './components/Empty.tsx';
import { useLive } from './lib/live.ts';
import { useRoute, type Route } from './lib/route.ts';
import { FailuresView } from './views/FailuresView.tsx';
import { InvocationDetailView } from './views/InvocationDetailView.tsx';
import { InvocationsView } from './views/InvocationsView.tsx';
import { SendView } from './views/SendView.tsx';
import { TimelineView } from './views/TimelineView.tsx';
import { TriggersView } from './views/TriggersView.tsx';

const TITLES: Record<Route['name'], string> = {
  triggers: 'Triggers',
  invocations: 'Invocations',
  invocation: 'Invocation',
  failures: 'Failures',
  send: 'Send',
  timeline: 'Timeline',
  'not-found': 'Not found',
};

export function App() {
  const live = useLive();
  const [route, setParams] = useRoute();
  const { overview, invocations } = live;
  const canWrite = overview?.mode === 'read-write';
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);

  const functions = useMemo(() => {
    const names = new Set(overview?.triggers.map((t) => t.function));
    for (const inv of invocations) names.add(inv.function);
    return [...names].sort();
  }, [overview?.triggers.map((t) => t.function).join('\n'), invocations]);

  // A new view: say so in the title, start at its top, and move focus to it (not on the first load).
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    main.current?.focus({ preventScroll: true });
    scrollTo(0, 0);
  }, [route.name, route.name === 'invocation' ? route.id : '']);
  useEffect(() => {
    document.title = `${TITLES[route.name]} · Sluice console${overview ? ` · ${overview.service}` : ''}`;
  }, [route.name, overview?.service]);

  const needOverview = (view: (o: Overview) => ComponentChildren): ComponentChildren =>
    overview ? view(overview) : live.overviewError ? <ErrorNote>Could not reach the console server: {live.overviewError}</ErrorNote> : <Loading what="the overview" />;

  let view: ComponentChildren;
  switch (route.name) {
    case 'triggers':
      view = needOverview((o) => <TriggersView overview={o} offset={live.offset} />);
      break;
    case 'invocations':
      view = (
        <InvocationsView
          invocations={invocations}
          loaded={live.invocationsLoaded}
          error={live.invocationsError}
          functions={functions}
          params={route.params}
          setParams={setParams}
          canWrite={canWrite}
          unlisted={overview?.unlisted}
          eventsPerSecond={overview?.eventsPerSecond}
          listedPerSecond={overview?.listedPerSecond}
        />
      );
      break;
    case 'invocation':
      view = (
        <InvocationDetailView id={route.id} summary={invocations.find((i) => i.id === route.id)} canWrite={canWrite} historySize={overview?.historySize} />
      );
      break;
    case 'failures':
      view = <FailuresView overview={overview} canWrite={canWrite} />;
      break;
    case 'send':
      view = needOverview((o) =>
        o.mode === 'read-write' ? <SendView overview={o} /> : <Empty>This console is read-only: sending records is off.</Empty>,
      );
      break;
    case 'timeline':
      view = needOverview((o) => <TimelineView overview={o} />);
      break;
    default:
      view = (
        <Empty>
          Nothing at <code>{route.path}</code> — go to the <a href="#/">triggers</a>.
        </Empty>
      );
  }

  return (
    <>
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), main.current?.focus())}>
        Skip to the content
      </a>
      <Header overview={overview} connected={live.connected} route={route} />
      {live.restarted && canWrite && (
        <div class="banner" role="alert" data-testid="restarted">
          The poller restarted, so this page's token is stale: reload it before you replay, send or redrive.{' '}
          <button type="button" onClick={() => location.reload()}>
            Reload
          </button>
        </div>
      )}
      <main id="main" ref={main} tabIndex={-1}>
        {view}
      </main>
    </>
  );
}
