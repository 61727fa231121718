import { describe, expect, it } from 'vitest';
import { startEmfReporter } from './emf.ts';
import type { TriggerSnapshot } from './metrics.ts';

const settings = (periodSeconds: number) => ({ namespace: 'Sluice', periodSeconds, service: 'shop-prod', functionNames: { orders: 'shop-prod-orders' } });

describe('startEmfReporter', () => {
  it('writes one line per trigger: the current OffsetLag, and counts since the previous line; a last line at stop', () => {
    let snap: TriggerSnapshot = { functionName: 'orders', topic: 'orders', group: 'g', invocations: 3, errors: 1, throttles: 0, offsetLag: 40 };
    const lines: string[] = [];
    const emf = startEmfReporter({ snapshot: () => [snap] }, settings(60), (l) => lines.push(l), () => 1_700_000_000_000);
    emf.flush();
    snap = { ...snap, invocations: 10, errors: 1, throttles: 2, offsetLag: 0 };
    emf.stop();
    emf.stop(); // once
    const docs = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(docs).toHaveLength(2);
    expect(docs[0]).toEqual({
      _aws: {
        Timestamp: 1_700_000_000_000,
        CloudWatchMetrics: [{
          Namespace: 'Sluice',
          Dimensions: [['Service', 'FunctionName', 'Topic'], ['Service']],
          Metrics: [{ Name: 'OffsetLag', Unit: 'Count' }, { Name: 'Invocations', Unit: 'Count' }, { Name: 'Errors', Unit: 'Count' }, { Name: 'Throttles', Unit: 'Count' }],
        }],
      },
      Service: 'shop-prod', FunctionName: 'shop-prod-orders', Topic: 'orders', ConsumerGroup: 'g', OffsetLag: 40, Invocations: 3, Errors: 1, Throttles: 0,
    });
    expect(docs[1]).toMatchObject({ OffsetLag: 0, Invocations: 7, Errors: 0, Throttles: 2 });
  });

  it('marks metrics high-resolution when the period is under a minute', () => {
    const lines: string[] = [];
    startEmfReporter({ snapshot: () => [{ functionName: 'x', topic: 't', group: 'g', invocations: 0, errors: 0, throttles: 0, offsetLag: 0 }] }, settings(10), (l) => lines.push(l)).stop();
    expect((JSON.parse(lines[0]!) as { _aws: { CloudWatchMetrics: Array<{ Metrics: unknown[] }> } })._aws.CloudWatchMetrics[0]!.Metrics).toContainEqual({ Name: 'OffsetLag', Unit: 'Count', StorageResolution: 1 });
  });
});
