/**
 * What `npm start` shows: one line per group change, chunk and commit, so a developer sees
 * records flow. It only listens to instrumentation events; the poller knows nothing of it.
 * Events quote what records and handlers chose (errors, reasons): each line is printed through
 * printable(), one event a line, with a failed handler's stack frames on the lines below.
 */
import type { Instrumentation, SluiceEvents } from './events.ts';
import { printable, printableJson } from './printable.ts';

/** Failed attempts of one record before the hint about endless retries is shown. */
const HINT_AFTER_ATTEMPTS = 3;

/** What the view shows, as events: with SLUICE_LOG_FORMAT=json each is one JSON object, the event's own fields. */
const SHOWN = [
  'group.join', 'group.rebalance_detected', 'group.rebalanced', 'poller.budget_exhausted', 'poller.bisected', 'poller.sent_to_destination',
  'poller.destination_failed', 'poller.skipped', 'poller.filtered', 'poller.commit_refused', 'poller.chunk_start', 'poller.chunk_end', 'poller.commit',
  'poller.retry_scheduled', 'queue.acquired', 'queue.ack_result',
] as const satisfies ReadonlyArray<keyof SluiceEvents>;

/** ANSI colours of the lines' leading symbols on a terminal. */
const COLOURS: Record<string, number> = { '✓': 32, '✗': 31, '◐': 33, '↻': 33, '!': 33, '→': 35, '⇄': 36 };

/** `colour`: paint the leading symbols (a TTY without NO_COLOR; run-local.ts decides). */
export function attachTerminalView(
  events: Instrumentation, write: (line: string) => void = (l) => process.stdout.write(l + '\n'), format: 'text' | 'json' = 'text', colour = false,
): () => void {
  if (format === 'json') {
    const off = SHOWN.map((name) => events.on(name, (e: object) => write(printableJson(JSON.stringify({ time: new Date().toISOString(), level: 'info', event: name, ...e })))));
    return () => off.forEach((f) => f());
  }
  const time = () => new Date().toISOString().slice(11, 23);
  const paint = (s: string) => {
    const code = colour ? COLOURS[s[0]!] : undefined;
    return code ? `\x1b[${code}m${s[0]}\x1b[0m${s.slice(1)}` : s;
  };
  const line = (s: string, below = '') => write(`${time()} ${paint(printable(s))}${below}`);
  const offsets = (a: number, b: number) => (a === b ? `offset ${a}` : `offsets ${a}–${b}`);
  const hinted = new Set<string>();
  /** The last commit line per partition. */
  const lastCommit = new Map<string, string>();
  const off = [
    events.on('group.join', (e) => {
      const parts = Object.entries(e.assignment).filter(([, ps]) => ps.length > 0).map(([t, ps]) => `${t}[${ps.join(',')}]`).join(' ');
      // Nothing assigned: say who holds the partitions and for how long one that is gone may keep them.
      const none =
        'no partitions: the group\'s other members hold them all (status shows who). A member that stopped without leaving, ' +
        'as a static member (groupInstanceId) does, keeps its partitions until its session timeout ends (45 s by default); they move here then';
      line(`⇄ group ${e.groupId}: joined as ${e.isLeader ? 'leader' : 'member'}, assigned ${parts || none} (${e.durationMs} ms)`);
    }),
    events.on('group.rebalance_detected', (e) =>
      line(
        e.partitions
          ? `⇄ group ${e.groupId}: partition${e.partitions.length === 1 ? '' : 's'} ${e.partitions.join(',')} revoked (${e.where}); their in-flight chunks finish and commit, the other partitions keep flowing`
          : `⇄ group ${e.groupId}: rebalance begun (seen by ${e.where}); finishing in-flight chunks before rejoining`,
      ),
    ),
    events.on('group.rebalanced', (e) =>
      line(e.revoked ? `⇄ group ${e.groupId}: handed back partition${e.revoked.length === 1 ? '' : 's'} ${e.revoked.join(',')} after ${e.durationMs} ms` : `⇄ group ${e.groupId}: rejoined ${e.durationMs} ms after the rebalance began`),
    ),
    events.on('poller.budget_exhausted', (e) =>
      line(`⏸ ${e.functionName} ${e.topic}-${e.partition}: next chunk (timeout ${e.timeoutMs} ms) would outlast the poll interval (${e.elapsedMs}/${e.maxPollIntervalMs} ms used); back to the group first`),
    ),
    events.on('poller.bisected', (e) => line(`½ ${e.functionName} ${e.topic}-${e.partition} from ${e.firstOffset}: split into ${e.sizes.join(' + ')} records`)),
    events.on('poller.sent_to_destination', (e) => line(`→ ${e.functionName} ${e.topic}-${e.partition} offsets ${e.offsets.join(',')}: ${e.reason}, sent to ${e.destination}`)),
    events.on('poller.destination_failed', (e) => line(`! ${e.functionName} ${e.topic}-${e.partition}: ${e.destination} unavailable (${e.error}); the partition waits`)),
    events.on('poller.skipped', (e) => line(`✗ ${e.functionName} ${e.topic}-${e.partition} offsets ${e.offsets.join(',')}: ${e.reason}, no destination: skipped`)),
    events.on('poller.filtered', (e) => line(`· ${e.functionName} ${e.topic}-${e.partition}: ${e.count} record${e.count === 1 ? '' : 's'} matched no filter pattern`)),
    events.on('queue.ack_result', (e) => {
      if (e.outcome === 'applied') return; // the invocation's line said enough
      const count = e.ranges.reduce((n, r) => n + r.until - r.from + 1, 0);
      const what = `${count} acknowledgement${count === 1 ? '' : 's'}`;
      line(`! ${e.functionName} ${e.topic}-${e.partition}: ${e.outcome === 'unknown' ? `${what} in flight when a request failed (${e.error}): sent again` : `${what} ${e.outcome} (${e.error}): delivered again`}`);
    }),
    events.on('poller.commit_refused', (e) => line(`! ${e.functionName} ${e.topic}-${e.partition}: commit @ ${e.offset} not done (${e.reason})`)),
    events.on('poller.chunk_start', (e) =>
      line(`▸ ${e.functionName} ← ${e.topic}-${e.partition} ${e.count} record${e.count === 1 ? '' : 's'}, ${offsets(e.firstOffset, e.lastOffset)}${e.attempt > 1 ? ` (attempt ${e.attempt})` : ''}`),
    ),
    events.on('poller.chunk_end', (e) =>
      line(
        !e.ok
          ? `✗ ${e.functionName} ${e.topic}-${e.partition} failed in ${e.durationMs} ms: ${e.error}`
          : e.malformedResponse !== undefined
            ? `✗ ${e.functionName} ${e.topic}-${e.partition} answered in ${e.durationMs} ms, but the whole chunk counts as failed: ${e.malformedResponse}`
          : e.reportedFailedFrom !== undefined
            ? `◐ ${e.functionName} ${e.topic}-${e.partition} answered in ${e.durationMs} ms, reporting offset ${e.reportedFailedFrom} as failed: ${e.reportedFailedFrom > e.firstOffset ? `${offsets(e.firstOffset, e.reportedFailedFrom - 1)} done, ` : ''}the failure policy takes it from there`
            : `✓ ${e.functionName} ${e.topic}-${e.partition} ${e.count} ok in ${e.durationMs} ms`,
        e.ok ? '' : stackLines(e.stack),
      ),
    ),
    events.on('poller.commit', (e) => {
      // parallelizationFactor > 1 commits as each chunk ends, often the same offset with more done beyond it: said once per change.
      const text = `  committed ${e.topic}-${e.partition} @ ${e.offset}${e.doneBeyond ? `, ${e.doneBeyond} done beyond it` : ''}`;
      const key = `${e.functionName}|${e.topic}|${e.partition}`;
      if (e.metadataBytes !== undefined && lastCommit.get(key) === text) return;
      lastCommit.set(key, text);
      line(text);
    }),
    events.on('poller.retry_scheduled', (e) => {
      line(`↻ ${e.functionName} ${e.topic}-${e.partition} retries offset ${e.offset} in ${retryIn(e.delayMs, e.fetchWaitMs)}${e.notInvoked ? ' (the function was not reached: no attempt spent)' : ''}`);
      // Once per function: a record that keeps failing holds its partition for good under AWS's defaults.
      if (e.untilSuccess && e.attempt >= HINT_AFTER_ATTEMPTS && !hinted.has(e.functionName)) {
        hinted.add(e.functionName);
        write(
          `  hint: ${e.functionName} retries a failing record until it succeeds (maximumRetryAttempts -1 and no maximumRecordAgeInSeconds, AWS's defaults), ` +
            `${e.keyWaits ? 'so it waits meanwhile with the later records of its key (none under ordering: unordered), and its partition once the commit metadata\'s window beyond it is done (24,432 offsets at Kafka\'s default offset.metadata.max.bytes)' : 'so its partition waits meanwhile'}. To move past a record that keeps failing, set maximumRetryAttempts (e.g. 2) and destinationConfig.onFailure.destination (e.g. kafka://<topic>-failed).`,
        );
      }
    }),
  ];
  return () => off.forEach((f) => f());
}

/** A handler's stack under its ✗ line: its frames (the first line repeats the message) down to the worker's own, at most 10, indented. */
function stackLines(stack: string | undefined): string {
  const all = (stack ?? '').split('\n').filter((l) => /^\s+at /.test(l));
  const own = all.findIndex((l) => /worker-runtime|new Promise \(<anonymous>\)|node:internal/.test(l));
  const frames = all.slice(0, own < 0 ? 10 : Math.min(own, 10));
  return frames.length ? `\n${frames.map((f) => `    ${printable(f.trim())}`).join('\n')}` : '';
}

/**
 * When a retry runs: its backoff, then the first fetch after it, which waits up to the trigger's
 * fetch wait for records when the topic is quiet ("0.5–1.5 s"); the backoff alone read as a promise
 * the poller did not keep (0.4 s was followed by the next attempt 2.0 s later).
 */
export function retryIn(delayMs: number, fetchWaitMs = 0): string {
  const s = (ms: number) => (ms / 1000).toFixed(1);
  return fetchWaitMs > 0 ? `${s(delayMs)}–${s(delayMs + fetchWaitMs)} s (its backoff, then its next fetch)` : `${s(delayMs)} s`;
}
