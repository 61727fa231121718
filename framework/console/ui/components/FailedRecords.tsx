/** The records in a kafka:// destination (newest first), and the records this process sent there. */
import type { FailedRecordView, FailureDestination } from '../../api-types.ts';
import { clock, fullTime, recordTime, topicPartition } from '../lib/format.ts';
import { Key, Txt } from './Text.tsx';

/** FAILURE_HEADERS.error (framework/failure/failed-record.ts): a producer's own header of that name is renamed `producer-…` there, so this one is Sluice's. */
const ERROR_HEADER = 'sluice-failure-error';

function Headers({ headers }: { headers: Record<string, string> }) {
  const entries = Object.entries(headers);
  if (entries.length === 0) return <span class="muted">none</span>;
  return (
    <dl class="headers">
      {entries.map(([name, value]) => (
        <div key={name}>
          <dt><Txt s={name} /></dt>
          {/* Sluice's error header keeps its lines (it carries the stack); any other value, a producer's bytes, shows its newlines as escapes, so none can draw lines that look like more headers. */}
          <dd><Txt s={value} multiline={name === ERROR_HEADER} /></dd>
        </div>
      ))}
    </dl>
  );
}

function Row({ r }: { r: FailedRecordView }) {
  const time = recordTime(r.timestamp);
  return (
    <tr data-testid="failure-record">
      <td class="num">{r.partition}@{r.offset}</td>
      <td class="time" title={time.title}><Txt s={time.text} /></td>
      <td>{r.reason === undefined ? <span class="muted">not written by Sluice</span> : <Txt s={r.reason} />}</td>
      <td class="num">{r.attempts ?? '—'}</td>
      <td>{r.source ? <><Txt s={topicPartition(r.source.topic, r.source.partition)} />@{r.source.offset}</> : <span class="muted">—</span>}</td>
      <td><Key k={r.key} /></td>
      <td class="value">
        {r.reduced !== undefined ? (
          <span class="note" data-testid="reduced-copy">reduced copy, no record: <Txt s={r.reduced} /></span>
        ) : r.value === null ? (
          <span class="muted">null (tombstone)</span>
        ) : (
          <pre class="block small"><Txt s={r.value} multiline /></pre>
        )}
        {r.valueTruncated && <span class="note">truncated to 4 KiB</span>}
      </td>
      <td><Headers headers={r.headers} /></td>
    </tr>
  );
}

export function FailedRecords({ records }: { records: FailedRecordView[] }) {
  if (records.length === 0) return <p class="muted">The destination topic is empty: no record has failed (or it was redriven and compacted away).</p>;
  return (
    <div class="table-wrap">
      <table class="failures">
        <thead>
          <tr>
            <th scope="col" class="num">Partition@offset</th>
            <th scope="col">Time</th>
            <th scope="col">Reason</th>
            <th scope="col" class="num">Attempts</th>
            <th scope="col">Source</th>
            <th scope="col">Key</th>
            <th scope="col">Value</th>
            <th scope="col">Headers</th>
          </tr>
        </thead>
        <tbody>
          {records.map((r) => <Row key={`${r.partition}@${r.offset}`} r={r} />)}
        </tbody>
      </table>
    </div>
  );
}

export function SentList({ sent }: { sent: FailureDestination['sent'] }) {
  if (sent.length === 0) return <p class="muted">This process has sent nothing there since it started.</p>;
  return (
    <ol class="sent">
      {sent.map((s, i) => (
        <li key={i} data-testid="failure-sent">
          <span class="time" title={fullTime(s.t)}>{clock(s.t)}</span>{' '}
          <Txt s={topicPartition(s.topic, s.partition)} />@{s.offsets.length > 3 ? `${s.offsets[0]}…${s.offsets.at(-1)} (${s.offsets.length})` : s.offsets.join(', ')}{' '}
          <span class="muted">after {s.attempts} attempt{s.attempts === 1 ? '' : 's'}:</span> <Txt s={s.reason} />
        </li>
      ))}
    </ol>
  );
}
