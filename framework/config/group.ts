import { maxTimeoutFor, minPollIntervalFor, safetyMarginMs, startWindowMs } from '../chunking/budget.ts';
import { GROUP_LIMITS, type GroupTuningInput } from './schema.ts';
import type { TriggerSpec } from './types.ts';

/**
 * Pure: Sluice's consumer-group tuning for one trigger. Each value comes from the `sluice:`
 * event, else `custom.sluice`, else the built-in default; then the rules that relate the values
 * to each other and to the function's timeout are checked on the result, one message line per
 * broken rule, naming both values, where each was set when that is not the line's own path,
 * and what to change.
 */
export type GroupSettings = Pick<TriggerSpec, 'maxPollIntervalMs' | 'sessionTimeoutMs' | 'heartbeatIntervalMs' | 'concurrency' | 'maxConsumerRestarts'>;

type Name = keyof GroupSettings;

export const GROUP_DEFAULTS: Readonly<GroupSettings> = {
  maxPollIntervalMs: GROUP_LIMITS.maxPollIntervalMs.default,
  sessionTimeoutMs: GROUP_LIMITS.sessionTimeoutMs.default,
  heartbeatIntervalMs: GROUP_LIMITS.heartbeatIntervalMs.default,
  concurrency: GROUP_LIMITS.concurrency.default,
  maxConsumerRestarts: GROUP_LIMITS.maxConsumerRestarts.default,
};

const NAMES = Object.keys(GROUP_DEFAULTS) as Name[];
const SERVICE_PATH = 'custom.sluice';

export interface GroupContext {
  /** Where the event is declared: `functions.orders.events[0].sluice`. */
  path: string;
  functionName: string;
  timeoutMs: number;
}

/**
 * `service` is `custom.sluice` as validated; undefined when it is itself invalid (already
 * reported): the defaults then stand in for it and the rules are not checked, since the values
 * they would judge are not the ones the user wrote.
 */
export function groupSettings(
  event: GroupTuningInput,
  service: GroupTuningInput | undefined,
  context: GroupContext,
): { settings: GroupSettings; problems: string[] } {
  const settings = { ...GROUP_DEFAULTS };
  const from: Record<Name, string> = { maxPollIntervalMs: 'default', sessionTimeoutMs: 'default', heartbeatIntervalMs: 'default', concurrency: 'default', maxConsumerRestarts: 'default' };
  for (const name of NAMES) {
    const own = event[name];
    const shared = service?.[name];
    if (own !== undefined) [settings[name], from[name]] = [own, context.path];
    else if (shared !== undefined) [settings[name], from[name]] = [shared, SERVICE_PATH];
  }
  return { settings, problems: service === undefined ? [] : groupProblems(settings, from, context) };
}

function groupProblems(s: GroupSettings, from: Record<Name, string>, context: GroupContext): string[] {
  const problems: string[] = [];
  /** The line's path: the event's if it sets one of the values, else custom.sluice's. */
  const lineAt = (...names: Name[]) => (names.some((n) => from[n] === context.path) ? context.path : SERVICE_PATH);
  const show = (name: Name, at: string) => `${name} ${s[name]}${from[name] === at ? '' : ` (${from[name]})`}`;
  const fixes = (options: Array<string | undefined>) => {
    const text = options.filter((o) => o !== undefined).join(', or ');
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  };

  const { heartbeatIntervalMs: heartbeat, sessionTimeoutMs: session, maxPollIntervalMs: interval } = s;
  if (heartbeat * 3 >= session) {
    const at = lineAt('heartbeatIntervalMs', 'sessionTimeoutMs');
    const raiseTo = heartbeat * 3 + 1;
    problems.push(
      `${at}: ${show('heartbeatIntervalMs', at)} is not below a third of ${show('sessionTimeoutMs', at)}. ` +
        fixes([
          `lower heartbeatIntervalMs to at most ${Math.floor((session - 1) / 3)}`,
          raiseTo <= GROUP_LIMITS.sessionTimeoutMs.maximum ? `raise sessionTimeoutMs to at least ${raiseTo}` : undefined,
        ]),
    );
  }

  const fits = maxTimeoutFor(interval);
  if (context.timeoutMs > fits) {
    const at = `functions.${context.functionName}`;
    const needed = minPollIntervalFor(context.timeoutMs);
    const fitSeconds = Math.floor(fits / 1000);
    const longest = GROUP_LIMITS.maxPollIntervalMs.maximum;
    const options: Array<string | undefined> = [
      needed <= longest ? `raise maxPollIntervalMs to at least ${needed}` : undefined,
      fitSeconds >= 1 ? `lower the function's timeout to at most ${fitSeconds} s` : undefined,
    ];
    if (!options.some((o) => o !== undefined)) {
      // A timeout beyond what even the longest interval fits, with an interval too short for any timeout.
      options.push(`lower the function's timeout to at most ${Math.floor(maxTimeoutFor(longest) / 1000)} s and raise maxPollIntervalMs to ${longest}`);
    }
    problems.push(
      `${at}: timeout ${context.timeoutMs / 1000} s does not fit in ${show('maxPollIntervalMs', at)} ` +
        `with its safety margin of ${safetyMarginMs(interval)} ms and a start window of ${startWindowMs(interval)} ms after each fetch: ` +
        `an invocation could outlast the member's poll interval and get it removed from the group. ${fixes(options)}`,
    );
  }

  if (session > interval) {
    const at = lineAt('sessionTimeoutMs', 'maxPollIntervalMs');
    problems.push(
      `${at}: ${show('sessionTimeoutMs', at)} is above ${show('maxPollIntervalMs', at)}: Kafka needs the rebalance ` +
        'timeout (maxPollIntervalMs) to be at least the session timeout. ' +
        fixes([`lower sessionTimeoutMs to at most ${interval}`, `raise maxPollIntervalMs to at least ${session}`]),
    );
  }
  return problems;
}
