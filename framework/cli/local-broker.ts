/** The address of the local Kafka that `npm start` runs, for commands that need a broker but start none. */
import { brokerStatus } from '../../infra/kafka/broker.ts';
import { SluiceError } from '../errors.ts';
import { commandLine } from '../front-door.ts';

export async function runningLocalBroker(how = 'pass --brokers or set KAFKA_BROKERS'): Promise<string[]> {
  const status = await brokerStatus();
  if (!status.running || !status.bootstrap) {
    throw new SluiceError('BROKER_UNREACHABLE', `No brokers given and the local Kafka is not running: start it with \`${commandLine('start')}\`, or ${how}.`);
  }
  return [status.bootstrap];
}

/** For `lag` and `status`: the local Kafka's address when a trigger names no brokers (they read its group there), else undefined. */
export async function localBrokersFor(triggers: ReadonlyArray<{ bootstrapServers: string[] | undefined }>): Promise<string[] | undefined> {
  return triggers.every((t) => t.bootstrapServers) ? undefined : runningLocalBroker('set bootstrapServers or KAFKA_BROKERS');
}
