/**
 * CloudWatch metrics without an agent or PutMetricData: every period the poller container writes
 * one CloudWatch Embedded Metric Format line per trigger to stdout, and the awslogs driver ships
 * it; CloudWatch Logs extracts the metrics. `OffsetLag` keeps AWS's name and meaning (the Kafka
 * trigger's metric): records behind, the Maximum across partitions. Each line carries the largest
 * lag of the partitions this task owns, so the Maximum over the tasks' lines is the trigger's. A
 * queue trigger's line carries its share group's whole backlog (every task reads the same), since
 * any task takes records of any partition.
 * Invocations, Errors and Throttles count what happened since the previous line.
 *
 * Dimensions: [Service, FunctionName, Topic] per trigger, and [Service] alone, which the scaling
 * policy tracks (plugin/deploy/scaling.ts): the largest lag of any trigger of the service.
 */
import type { PollerMetrics, TriggerSnapshot } from './metrics.ts';

export const EMF_DEFAULTS = { namespace: 'Sluice', periodSeconds: 60 } as const;
export const OFFSET_LAG = 'OffsetLag';
export const SERVICE_DIMENSION = 'Service';

export interface EmfSettings {
  namespace: string;
  periodSeconds: number;
  /** `<service>-<stage>`: the Service dimension. */
  service: string;
  /** Function key → the deployed Lambda's name (the FunctionName dimension, as AWS's). */
  functionNames: Readonly<Record<string, string>>;
}

export interface EmfReporter {
  /** Writes the lines now (also done every period). */
  flush(): void;
  /** Stops the timer after a last flush, so the counts of a partial period are not lost. */
  stop(): void;
}

export function startEmfReporter(metrics: Pick<PollerMetrics, 'snapshot'>, s: EmfSettings, write: (line: string) => void, now = Date.now): EmfReporter {
  const previous = new Map<string, TriggerSnapshot>();
  const flush = () => {
    const timestamp = now();
    for (const t of metrics.snapshot()) {
      const key = `${t.functionName}|${t.topic}`;
      const last = previous.get(key);
      previous.set(key, t);
      write(JSON.stringify(emfLine(s, t, last, timestamp)));
    }
  };
  const timer = setInterval(flush, s.periodSeconds * 1000);
  timer.unref();
  let stopped = false;
  return {
    flush,
    stop: () => {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      flush();
    },
  };
}

/** One EMF document: the `_aws` metadata, the dimension values and the metric values at its root. */
export function emfLine(s: EmfSettings, t: TriggerSnapshot, last: TriggerSnapshot | undefined, timestamp: number): Record<string, unknown> {
  // Below a minute, a high-resolution metric keeps each period's point instead of one per minute.
  const resolution = s.periodSeconds < 60 ? { StorageResolution: 1 } : {};
  const count = (name: string) => ({ Name: name, Unit: 'Count', ...resolution });
  return {
    _aws: {
      Timestamp: timestamp,
      CloudWatchMetrics: [
        {
          Namespace: s.namespace,
          Dimensions: [[SERVICE_DIMENSION, 'FunctionName', 'Topic'], [SERVICE_DIMENSION]],
          Metrics: [count(OFFSET_LAG), count('Invocations'), count('Errors'), count('Throttles')],
        },
      ],
    },
    [SERVICE_DIMENSION]: s.service,
    FunctionName: s.functionNames[t.functionName] ?? t.functionName,
    Topic: t.topic,
    ConsumerGroup: t.group,
    [OFFSET_LAG]: t.offsetLag,
    Invocations: t.invocations - (last?.invocations ?? 0),
    Errors: t.errors - (last?.errors ?? 0),
    Throttles: t.throttles - (last?.throttles ?? 0),
  };
}
