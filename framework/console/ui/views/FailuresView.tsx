/**
 * #/failures — each trigger's on-failure destination: the records in it (kafka:// only), the
 * records this process sent there, and (unless read-only) Redrive. Refreshed every 5 s while shown
 * and the tab is visible, and on demand.
 */
import { useEffect } from 'preact/hooks';
import type { FailureDestination, Overview } from '../../api-types.ts';
import { Empty, ErrorNote, Loading } from '../components/Empty.tsx';
import { FailedRecords, SentList } from '../components/FailedRecords.tsx';
import { RedriveButton } from '../components/RedriveButton.tsx';
import { Txt } from '../components/Text.tsx';
import { clock } from '../lib/format.ts';
import { useJson } from '../lib/use-json.ts';

const REFRESH_MS = 5000;
const MAX_RECORDS = 200;

/** Where a redrive sends the records: their source topic as the headers say, else the trigger's. */
function sourceTopic(dest: FailureDestination, overview: Overview | null): string {
  const counts = new Map<string, number>();
  for (const r of dest.records) if (r.source) counts.set(r.source.topic, (counts.get(r.source.topic) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  return top ?? dest.topic;
}

/** A stable id from a name a record or a user chose (ids cannot hold every character). */
const idPart = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_');

function Destination({ dest, overview, canWrite, reload }: { dest: FailureDestination; overview: Overview | null; canWrite: boolean; reload: () => void }) {
  // A reduced copy holds no record: redrive leaves it, so it is not counted.
  const redrivable = dest.records.filter((r) => r.source !== undefined && r.reduced === undefined).length;
  const id = `failures-title-${idPart(dest.function)}-${idPart(dest.topic)}`;
  return (
    <section class="card" data-testid={`failures-${dest.function}`} aria-labelledby={id}>
      <header class="card-head">
        <h2 id={id}>
          <Txt s={dest.function} /> <span class="muted">←</span> <span class="topic"><Txt s={dest.topic} /></span> <span class="arrow" aria-label="sends failures to">→</span> <span class="topic"><Txt s={dest.destination} /></span>
        </h2>
        {canWrite && dest.readable && (
          <RedriveButton fn={dest.function} topic={dest.topic} records={redrivable} more={dest.records.length >= MAX_RECORDS} target={sourceTopic(dest, overview)} onDone={reload} />
        )}
      </header>
      {dest.note && <p class="note"><Txt s={dest.note} /></p>}
      {dest.readable && (
        <>
          <h3>In the destination <span class="muted">(newest first{dest.records.length >= MAX_RECORDS ? `, the newest ${MAX_RECORDS}` : ''})</span></h3>
          <FailedRecords records={dest.records} />
        </>
      )}
      <h3>Sent by this process</h3>
      <SentList sent={dest.sent} />
    </section>
  );
}

export function FailuresView({ overview, canWrite }: { overview: Overview | null; canWrite: boolean }) {
  const { data, error, loading, at, reload } = useJson<{ destinations: FailureDestination[] }>('/api/failures');

  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') reload();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);

  return (
    <div class="failures-view">
      <div class="view-head">
        <h1>Failures</h1>
        <button type="button" data-testid="failures-refresh" onClick={reload}>
          Refresh
        </button>
        <span class="muted">{loading ? 'refreshing…' : at !== null ? `updated ${clock(at)} · every 5 s` : ''}</span>
      </div>
      {error && <ErrorNote>Could not load the failures: {error}</ErrorNote>}
      {!data ? (
        !error && <Loading what="the failure destinations" />
      ) : data.destinations.length === 0 ? (
        <Empty testid="failures-empty">
          No trigger has an on-failure destination — add <code>destinationConfig: onFailure: destination: kafka://&lt;topic&gt;</code> to a
          trigger in serverless.yml to keep the records that fail.
        </Empty>
      ) : (
        data.destinations.map((dest) => <Destination key={`${dest.function}|${dest.topic}`} dest={dest} overview={overview} canWrite={canWrite} reload={reload} />)
      )}
    </div>
  );
}
