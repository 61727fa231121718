import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseBrokers } from './brokers.ts';
import { closestName, levenshtein } from './suggest.ts';

describe('parseBrokers', () => {
  it('trims, splits on commas and drops empty entries', () => {
    expect(parseBrokers(' a:9092 , b.example.com:9093,', 'KAFKA_BROKERS')).toEqual({ brokers: ['a:9092', 'b.example.com:9093'], problems: [] });
    expect(parseBrokers(['a:1,b:2', ' [::1]:9092 '], 'x').brokers).toEqual(['a:1', 'b:2', '[::1]:9092']);
  });

  it('names the setting and the bad entry', () => {
    expect(parseBrokers('localhost:9092,kafka', 'KAFKA_BROKERS').problems).toEqual([
      'KAFKA_BROKERS: each broker must be host:port with a port 1–65535 (got "kafka"). Write brokers as host:port, e.g. localhost:9092, separated by commas.',
    ]);
    expect(parseBrokers('a:70000', 'x').problems[0]).toContain('(got "a:70000")');
    expect(parseBrokers('a:0', 'x').problems).toHaveLength(1);
    expect(parseBrokers(' , ', 'x').problems[0]).toContain('x: lists no broker');
  });

  it('round-trips any list of valid brokers, however it is spaced', () => {
    const broker = fc.tuple(fc.stringMatching(/^[a-z0-9.-]{1,20}$/), fc.integer({ min: 1, max: 65535 })).map(([h, p]) => `${h}:${p}`);
    fc.assert(
      fc.property(fc.array(broker, { minLength: 1, maxLength: 5 }), fc.constantFrom(',', ', ', ' ,'), (brokers, sep) => {
        expect(parseBrokers(brokers.join(sep), 'x')).toEqual({ brokers, problems: [] });
      }),
    );
  });
});

describe('closestName', () => {
  it('finds typos, ignoring case, and nothing when too far', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(closestName('batchsize', ['topic', 'batchSize'])).toBe('batchSize');
    expect(closestName('tpoic', ['topic', 'batchSize'])).toBe('topic');
    expect(closestName('retries', ['topic', 'batchSize'])).toBeUndefined();
  });
});
