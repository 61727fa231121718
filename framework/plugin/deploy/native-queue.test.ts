import { describe, expect, it } from 'vitest';
import { isConfigError } from '../../errors.ts';
import { kafkaEvents, markQueueMappings } from './native-queue.ts';

/** The mapping osls compiles for a kafka event (compile/events/kafka.js): StartingPosition always, TRIM_HORIZON by default. */
const mapping = (extra: Record<string, unknown> = {}) => ({
  Type: 'AWS::Lambda::EventSourceMapping',
  Properties: { FunctionName: { 'Fn::GetAtt': ['OrdersLambdaFunction', 'Arn'] }, StartingPosition: 'TRIM_HORIZON', Topics: ['orders'], SelfManagedEventSource: { Endpoints: { KafkaBootstrapServers: ['b1:9092'] } }, ...extra },
});
const id = (fn: string, topic: string) => `${fn[0]!.toUpperCase()}${fn.slice(1)}EventSourceMappingKafka${topic}`;

describe('native kafka events in queue mode, deployed', () => {
  it('sets ConsumptionMode: Queue on the mapping, keeps its consumer group, and takes StartingPosition out; a stream event is left as compiled', () => {
    const resources: Record<string, unknown> = {
      OrdersEventSourceMappingKafkaorders: mapping({ SelfManagedKafkaEventSourceConfig: { ConsumerGroupId: 'orders-share' } }),
      AuditEventSourceMappingKafkaaudit: mapping({ Topics: ['audit'] }),
    };
    const events = kafkaEvents([
      { key: 'orders', events: [{ http: {} }, { kafka: { topic: 'orders', consumptionMode: 'Queue', consumerGroupId: 'orders-share' } }] },
      { key: 'audit', events: [{ kafka: { topic: 'audit', consumptionMode: 'stream' } }] },
    ]);
    expect(markQueueMappings(events, resources, id)).toEqual(['OrdersEventSourceMappingKafkaorders']);
    expect(resources.OrdersEventSourceMappingKafkaorders).toEqual({
      Type: 'AWS::Lambda::EventSourceMapping',
      Properties: {
        FunctionName: { 'Fn::GetAtt': ['OrdersLambdaFunction', 'Arn'] }, Topics: ['orders'], SelfManagedEventSource: { Endpoints: { KafkaBootstrapServers: ['b1:9092'] } },
        SelfManagedKafkaEventSourceConfig: { ConsumerGroupId: 'orders-share', ConsumptionMode: 'Queue' },
      },
    });
    expect(resources.AuditEventSourceMappingKafkaaudit).toEqual(mapping({ Topics: ['audit'] }));
  });

  it('refuses what AWS refuses in queue mode, naming each property', () => {
    const events = kafkaEvents([{ key: 'orders', events: [{ kafka: { topic: 'orders', consumptionMode: 'queue', startingPosition: 'LATEST', maximumBatchingWindow: 5 } }] }]);
    try {
      markQueueMappings(events, { OrdersEventSourceMappingKafkaorders: mapping() }, id);
      expect.unreachable();
    } catch (e) {
      expect(isConfigError(e)).toBe(true);
      expect((e as Error).message).toBe(
        'functions.orders.events[0].kafka.startingPosition: AWS refuses it with consumptionMode: Queue. Remove it.\n' +
          'functions.orders.events[0].kafka.maximumBatchingWindow: AWS refuses it with consumptionMode: Queue. Remove it.',
      );
    }
  });

  it('says which mapping is missing rather than deploying a stream mapping', () => {
    const events = kafkaEvents([{ key: 'orders', events: [{ kafka: { topic: 'orders', consumptionMode: 'Queue' } }] }]);
    expect(() => markQueueMappings(events, {}, id)).toThrow('The kafka event of function "orders" (topic orders) has no OrdersEventSourceMappingKafkaorders event source mapping in the compiled template.');
  });
});
