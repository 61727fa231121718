import { describe, expect, it } from 'vitest';
import { toGroupMembers } from './describe-group.ts';

describe('toGroupMembers', () => {
  // What @confluentinc/kafka-javascript 1.10.1 answered for a KIP-848 group on Kafka 4.4 (one static member).
  const described = {
    groupId: 'g', isSimpleConsumerGroup: false, protocolType: 'consumer', protocol: 'uniform', partitionAssignor: 'uniform', state: 3, type: 1,
    coordinator: { id: 1, host: '127.0.0.1', port: 31092 },
    members: [{
      clientHost: '/127.0.0.1', clientId: 'sluice-orders', memberId: 'z4v99dF1TZGcUojSMafDMA', memberAssignment: null, memberMetadata: null, groupInstanceId: 'orders-0',
      assignment: { topicPartitions: [{ partition: 3, topic: 'orders' }, { partition: 0, topic: 'orders' }, { partition: 1, topic: 'audit' }] },
    }],
  };

  it('reads the members, their instance ids and partitions (sorted, per topic) and the state by name', () => {
    expect(toGroupMembers(described)).toEqual({
      state: 'Stable', protocolType: 'consumer', type: 'consumer', protocol: 'uniform',
      members: [{ memberId: 'z4v99dF1TZGcUojSMafDMA', clientId: 'sluice-orders', clientHost: '/127.0.0.1', groupInstanceId: 'orders-0', assignment: { orders: [0, 3], audit: [1] } }],
    });
  });

  it('is undefined for a classic group, an error, or nothing', () => {
    expect(toGroupMembers({ ...described, type: 2 })).toBeUndefined();
    expect(toGroupMembers({ ...described, error: { code: 69 } })).toBeUndefined();
    expect(toGroupMembers(undefined)).toBeUndefined();
  });
});
