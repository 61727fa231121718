import { Kafka } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { privateCluster } from './private-cluster.ts';

describe('privateCluster', () => {
  it('reaches the pinned kafkajs cluster factory (an upgrade that moves it fails here, not silently in a restart)', () => {
    const cluster = privateCluster(new Kafka({ brokers: ['127.0.0.1:1'], logLevel: 0 }));
    expect(typeof cluster?.connect).toBe('function');
    expect(typeof cluster?.findGroupCoordinator).toBe('function');
    expect(typeof cluster?.findGroupCoordinatorMetadata).toBe('function');
    expect(typeof cluster?.refreshMetadata).toBe('function');
  });
});
