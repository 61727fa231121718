/**
 * A trigger's partitions: state (and why a partition is held), committed offset, log end, lag, a
 * sparkline of the lag's last 10 minutes, and the chunks in flight against their deadlines. A queue
 * trigger's show the share group's backlog instead of offsets, and what this poller acquired
 * (redelivered of it) and acknowledged: accepted, released for another delivery, rejected.
 */
import type { PartitionView, TriggerView } from '../../api-types.ts';
import { count } from '../lib/format.ts';
import { StateBadge } from './Badge.tsx';
import { InFlightChunk } from './InFlightChunk.tsx';
import { Sparkline } from './Sparkline.tsx';
import { Txt } from './Text.tsx';

function State({ p }: { p: PartitionView }) {
  return (
    <>
      <StateBadge state={p.state} />
      {p.held && <span class="held"> {p.held}</span>}
      {p.reason && (
        <div class="reason">
          <Txt s={p.reason} />
        </div>
      )}
    </>
  );
}

function QueueCounts({ q }: { q: NonNullable<PartitionView['queue']> }) {
  return (
    <span data-testid="acknowledged">
      {count(q.accepted)} / {count(q.released)} / {count(q.rejected)}
    </span>
  );
}

export function PartitionTable({ trigger, offset }: { trigger: TriggerView; offset: number }) {
  const fn = trigger.function;
  const queue = trigger.consumptionMode === 'queue';
  if (trigger.partitions.length === 0 && queue) {
    return <p class="muted">The share group's backlog has not been read yet (every 5 s, once the poller has joined).</p>;
  }
  if (trigger.partitions.length === 0) {
    return <p class="muted">No partitions assigned to this member (yet): the group may be rebalancing, or other members hold them all.</p>;
  }
  return (
    <div class="table-wrap">
      <table class="partitions">
        <thead>
          <tr>
            <th scope="col">Partition</th>
            <th scope="col">State</th>
            {queue ? (
              <>
                <th scope="col" class="num" title="Records of the partition this poller acquired since it started (redelivered: at a delivery count above 1)">
                  Acquired (redelivered)
                </th>
                <th scope="col" class="num" title="How this poller acknowledged them">
                  Accepted / released / rejected
                </th>
                <th scope="col" class="num" title="The share group's records of the partition not acknowledged yet, in flight included, as the broker counts them">
                  Backlog
                </th>
              </>
            ) : (
              <>
                <th scope="col" class="num">
                  Committed
                </th>
                <th scope="col" class="num">
                  Log end
                </th>
                <th scope="col" class="num">
                  Lag
                </th>
              </>
            )}
            <th scope="col">Lag, 10 min</th>
            <th scope="col" class="inflight-col" title="Each chunk's time used against the function's timeout and the group's poll deadline">
              In flight · vs timeout and poll deadline
            </th>
          </tr>
        </thead>
        <tbody>
          {trigger.partitions.map((p) => (
            <tr key={p.partition} data-testid={`partition-${fn}-${p.partition}`}>
              <th scope="row" class="num">
                {p.partition}
              </th>
              <td>
                <State p={p} />
              </td>
              {p.queue ? (
                <>
                  <td class="num" data-testid="acquired">
                    {count(p.queue.acquired)} ({count(p.queue.redelivered)})
                  </td>
                  <td class="num">
                    <QueueCounts q={p.queue} />
                  </td>
                </>
              ) : (
                <>
                  <td class="num" data-testid="committed">
                    {count(p.committed)}
                  </td>
                  <td class="num" data-testid="log-end">
                    {count(p.logEnd)}
                  </td>
                </>
              )}
              <td class={`num ${p.lag > 0 ? 'lagging' : ''}`} data-testid="lag">
                {count(p.lag)}
              </td>
              <td>
                <Sparkline values={p.lagHistory} label={`Lag of partition ${p.partition}, last 10 minutes: ${count(Math.min(...p.lagHistory, p.lag))} to ${count(Math.max(...p.lagHistory, p.lag))}`} />
              </td>
              <td class="inflight-col">
                {p.inFlight.length === 0 ? (
                  <span class="muted">idle</span>
                ) : (
                  <div class="inflight" data-testid={`inflight-${fn}-${p.partition}`}>
                    {p.inFlight.map((chunk) => (
                      <InFlightChunk key={`${chunk.firstOffset}-${chunk.attempt}`} chunk={chunk} offset={offset} />
                    ))}
                  </div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
