import { DESTINATION_FORMS, parseDestination } from './destination.ts';
import { showValue } from './path.ts';
import { FAILURE_LIMITS, type FailurePolicyInput } from './schema.ts';
import type { FailurePolicy } from './types.ts';

/**
 * Pure: one trigger's failure policy (DESIGN §2.5) with every default applied, then the rules
 * between its values checked on the result, one message line per broken rule naming the values
 * and what to change. Sluice never drops a record, so every limit needs a destination, and a
 * destination must not feed the trigger its own failures.
 */
export const FAILURE_DEFAULTS: Readonly<FailurePolicy> = {
  maximumRetryAttempts: FAILURE_LIMITS.maximumRetryAttempts.default,
  maximumRecordAgeMs: undefined,
  bisectBatchOnFunctionError: false,
  reportBatchItemFailures: false,
  onFailure: undefined,
};

export interface FailureContext {
  /** Where the event is declared: `functions.orders.events[0].sluice`. */
  path: string;
  /** The trigger's own topic. */
  topic: string;
}

export function failurePolicy(event: FailurePolicyInput, context: FailureContext): { policy: FailurePolicy; problems: string[] } {
  const problems: string[] = [];
  const uri = event.destinationConfig?.onFailure.destination;
  const destinationAt = `${context.path}.destinationConfig.onFailure.destination`;
  const parsed = uri === undefined ? undefined : parseDestination(uri);
  if (parsed?.problem !== undefined) {
    // The schema refuses these first; this keeps the module safe on its own.
    problems.push(`${destinationAt}: ${parsed.problem} (got ${showValue(uri)}). ${DESTINATION_FORMS}`);
  }
  const age = event.maximumRecordAgeInSeconds ?? FAILURE_LIMITS.maximumRecordAgeInSeconds.default;
  const policy: FailurePolicy = {
    maximumRetryAttempts: event.maximumRetryAttempts ?? FAILURE_DEFAULTS.maximumRetryAttempts,
    maximumRecordAgeMs: age === -1 ? undefined : age * 1000,
    bisectBatchOnFunctionError: event.bisectBatchOnFunctionError ?? FAILURE_DEFAULTS.bisectBatchOnFunctionError,
    reportBatchItemFailures: event.functionResponseType === 'ReportBatchItemFailures',
    onFailure: parsed?.destination,
  };

  const failedTopic = `kafka://${context.topic.slice(0, 249 - '-failed'.length)}-failed`;
  if (policy.onFailure?.kind === 'kafka' && policy.onFailure.topic === context.topic) {
    problems.push(
      `${destinationAt}: must not be the trigger's own topic "${context.topic}": failed records would be consumed again ` +
        `and fail in a loop (got ${showValue(uri)}). Pick another topic, e.g. ${failedTopic}.`,
    );
  }

  // A destination that was written but is invalid is already reported: no second line about it.
  if (uri === undefined) {
    const limits = [
      { name: 'maximumRetryAttempts', value: policy.maximumRetryAttempts, set: policy.maximumRetryAttempts >= 0, fate: 'exhausts its retries' },
      { name: 'maximumRecordAgeInSeconds', value: age, set: age !== -1, fate: 'expires' },
    ].filter((limit) => limit.set);
    if (limits.length > 0) {
      const names = limits.map((l) => l.name).join(' and ');
      problems.push(
        `${context.path}: ${limits.map((l) => `${l.name} ${l.value}`).join(' and ')} ${limits.length === 1 ? 'is' : 'are'} set ` +
          'without destinationConfig.onFailure.destination: Sluice never drops a record, so a record that ' +
          `${limits.map((l) => l.fate).join(' or ')} needs somewhere to go. Add destinationConfig.onFailure.destination ` +
          `(e.g. ${failedTopic}), or remove ${names} to retry until the handler succeeds.`,
      );
    }
  }
  return { policy, problems };
}
