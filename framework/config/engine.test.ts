import { describe, expect, it } from 'vitest';
import { engineSettings, withInstanceId } from './engine.ts';

const AT = 'functions.orders.events[0].sluice';

describe('engineSettings', () => {
  it('defaults to kafkajs with the classic protocol, and librdkafka to KIP-848', () => {
    expect(engineSettings({}, undefined, AT)).toEqual({ settings: { engine: 'kafkajs', groupProtocol: 'classic' }, problems: [] });
    expect(engineSettings({ engine: 'librdkafka' }, undefined, AT).settings).toEqual({ engine: 'librdkafka', groupProtocol: 'consumer' });
    expect(engineSettings({}, { engine: 'librdkafka', groupProtocol: 'classic' }, AT).settings).toEqual({ engine: 'librdkafka', groupProtocol: 'classic' });
    expect(engineSettings({ engine: 'kafkajs' }, { engine: 'librdkafka' }, AT).settings.engine).toBe('kafkajs'); // the trigger's own wins
  });

  it('refuses what kafkajs cannot do by name, saying where the engine was chosen and what to change', () => {
    expect(engineSettings({ groupProtocol: 'consumer' }, undefined, AT).problems).toEqual([
      `${AT}: groupProtocol consumer (KIP-848) needs engine: librdkafka; the default engine, kafkajs, speaks only the classic group protocol. Set engine: librdkafka on the trigger or in custom.sluice, or groupProtocol: classic.`,
    ]);
    expect(engineSettings({ groupProtocol: 'consumer' }, { engine: 'kafkajs' }, AT).problems[0]).toContain('engine kafkajs (custom.sluice) speaks only');
    expect(engineSettings({ groupInstanceId: 'task-1' }, undefined, AT).problems).toEqual([
      `${AT}.groupInstanceId: static membership needs engine: librdkafka; the default engine, kafkajs, cannot keep a member's partitions across a restart. Set engine: librdkafka, or remove groupInstanceId.`,
    ]);
  });

  it('keeps a static member\'s id, and refuses one Kafka would not accept', () => {
    expect(engineSettings({ engine: 'librdkafka', groupInstanceId: 'ip-10-0-1-7.ec2' }, undefined, AT)).toEqual({
      settings: { engine: 'librdkafka', groupProtocol: 'consumer', groupInstanceId: 'ip-10-0-1-7.ec2' }, problems: [],
    });
    expect(engineSettings({ engine: 'librdkafka', groupInstanceId: 'pod 1' }, undefined, AT).problems[0]).toMatch(/"pod 1" is not a group.instance.id.*\$\{env:HOSTNAME\}/);
  });

});

describe('withInstanceId (SLUICE_GROUP_INSTANCE_ID, a deployed poller\'s own id)', () => {
  const rdk = { engine: 'librdkafka' as const, path: 'functions.a.events[0].sluice' };
  const kjs = { engine: 'kafkajs' as const, path: 'functions.b.events[0].sluice' };

  it('gives every librdkafka trigger the id and names the kafkajs ones it leaves alone', () => {
    expect(withInstanceId([rdk, kjs], 'pollers-2')).toEqual({ triggers: [{ ...rdk, groupInstanceId: 'pollers-2' }, kjs], ignored: [kjs.path] });
  });

  it('changes nothing when it is unset or empty', () => {
    expect(withInstanceId([rdk], undefined)).toEqual({ triggers: [rdk], ignored: [] });
    expect(withInstanceId([rdk], '')).toEqual({ triggers: [rdk], ignored: [] });
  });

  it('refuses what Kafka would not take as a group.instance.id', () => {
    expect(() => withInstanceId([rdk], 'pod 2')).toThrow('SLUICE_GROUP_INSTANCE_ID: "pod 2" is not a group.instance.id');
  });
});
