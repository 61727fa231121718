/**
 * What `npm start` and `serverless sluice start` check before any broker starts: every selected
 * function's handler file (for the local invoker) and the librdkafka binding for a trigger that
 * asks for that engine. Both failed after the local Kafka had started and stopped again (7.5 s and
 * 12.4 s); here they fail in milliseconds, with the same messages.
 */
import type { ServiceSpec, TriggerSpec } from '../config/types.ts';
import { locateHandler } from '../invoke/handler-path.ts';
import type { InvokerChoice } from '../invoke/select.ts';
import { loadRdkafka } from '../kafka/rdkafka/client.ts';

export function preflight(service: Pick<ServiceSpec, 'rootDir'>, triggers: readonly TriggerSpec[], invoker: InvokerChoice | undefined): void {
  if ((invoker?.kind ?? 'local') === 'local') {
    for (const t of new Map(triggers.map((t) => [t.functionName, t])).values()) locateHandler(service.rootDir, t.functionName, t.handler);
  }
  const rdkafka = triggers.find((t) => t.engine === 'librdkafka');
  if (rdkafka) loadRdkafka(rdkafka.path);
}
