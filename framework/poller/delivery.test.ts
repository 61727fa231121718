/**
 * What Delivery does with a record it gave up on when the trigger has no destination: a record
 * too large to invoke is skipped; one the schema registry could not decode is held while the
 * registry says it may not drop yet (RecordDecoder.mayDrop) and skipped otherwise, as AWS drops
 * it. Through the real poller and registry: tests/integration/schema-registry/failures.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { TriggerSpec } from '../config/types.ts';
import type { KafkaRecord } from '../event/record.ts';
import type { PartitionBatch } from '../kafka/member-port.ts';
import { Instrumentation } from '../observe/events.ts';
import { createLogger } from '../observe/logger.ts';
import { Delivery } from './delivery.ts';

const trigger = { functionName: 'orders', consumerGroupId: 'g', topic: 'orders' } as TriggerSpec;
const record = { topic: 'orders', partition: 0, offset: 7, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: Buffer.from('x'), headers: [] } as KafkaRecord;

function delivery(decodedOne: boolean) {
  const events = new Instrumentation();
  const seen: string[] = [];
  const logged: string[] = [];
  events.on('poller.skipped', (e) => seen.push(`skipped ${e.offsets.join(',')} ${e.reason}`));
  events.on('poller.destination_failed', (e) => seen.push(`held ${e.offsets.join(',')} ${e.reason} ${e.destination}`));
  const d = new Delivery(trigger, undefined, events, createLogger('test', { write: (l) => logged.push(l), format: 'json' }), 1_000, 60_000, () => decodedOne);
  return { send: (reason: 'SCHEMA_NOT_FOUND' | 'DESERIALIZATION_ERROR' | 'PayloadTooLarge') => d.sendToDestination({} as PartitionBatch, [record], reason, 1, 'why'), seen, logged };
}

describe('Delivery without a destination', () => {
  it.each(['SCHEMA_NOT_FOUND', 'DESERIALIZATION_ERROR'] as const)('holds a %s record the registry may not drop yet, saying what to fix', async (reason) => {
    const d = delivery(false);
    expect(await d.send(reason)).toBe(false);
    expect(d.seen).toEqual([`held 7 ${reason} (none)`]);
    expect(d.logged.join('\n')).toContain('fix schemaRegistryUri or the schema');
  });

  it.each(['SCHEMA_NOT_FOUND', 'DESERIALIZATION_ERROR'] as const)('skips a %s record the registry says is its own fault', async (reason) => {
    const d = delivery(true);
    expect(await d.send(reason)).toBe(true);
    expect(d.seen).toEqual([`skipped 7 ${reason}`]);
  });

  it('skips a record too large to invoke whatever the registry did', async () => {
    const d = delivery(false);
    expect(await d.send('PayloadTooLarge')).toBe(true);
    expect(d.seen).toEqual(['skipped 7 PayloadTooLarge']);
  });
});
