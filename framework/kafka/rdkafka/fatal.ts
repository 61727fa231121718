/**
 * librdkafka's fatal errors: after one the consumer does nothing more, and every poll answers
 * `Local: Fatal error` (-150) without saying why. The why is in its log (facility FATAL), which the
 * binding hands over at once, while its error event can wait 30 s. The member crashes with it,
 * said for Sluice's settings: with static membership, the group refuses an instance id another
 * member still holds (a poller running with the same id, or one killed within the session).
 */
import type { RdkafkaLogLine } from './refusal.ts';

/** librdkafka's code for "the client is in a fatal state". */
export const ERR_FATAL = -150;

export interface FatalContext {
  askedBy: string;
  groupId: string;
  groupInstanceId?: string;
}

/** What librdkafka said in its FATAL line, without its thread prefix and repeated tail; undefined for other lines. */
export function fatalIn(line: RdkafkaLogLine): string | undefined {
  if (line.fac !== 'FATAL') return undefined;
  const said = line.message.replace(/^\[thrd:[^\]]*\]: /, '').replace(/^Fatal error: /, '');
  // "Broker: X: ConsumerGroupHeartbeat fatal error: Broker: X" says X twice.
  const twice = /^(.*): [A-Za-z]+ fatal error: \1$/.exec(said);
  return twice ? twice[1]! : said;
}

/** The member's crash: the trigger, what librdkafka said, and what to do about it. */
export function fatalError(c: FatalContext, said: string | undefined): Error {
  const what = said ?? 'a fatal error (its log at debug says which)';
  const at = `${c.askedBy}: group ${c.groupId}`;
  if (c.groupInstanceId && /instance ID is still used/i.test(what)) {
    return new Error(
      `${at} refused groupInstanceId "${c.groupInstanceId}": another member still holds it (${what}). ` +
        'That is a poller running with the same id, or one stopped without leaving (killed) less than the broker\'s session timeout ago ' +
        '(group.consumer.session.timeout.ms, 45 s by default). Give each poller its own groupInstanceId (SLUICE_GROUP_INSTANCE_ID per pod), or start again once that session has expired.',
    );
  }
  if (c.groupInstanceId && /fenced/i.test(what)) {
    return new Error(
      `${at}: another member joined with groupInstanceId "${c.groupInstanceId}" and took this one's place (${what}). ` +
        'Give each poller its own groupInstanceId (SLUICE_GROUP_INSTANCE_ID per pod).',
    );
  }
  return new Error(`${at}: librdkafka stopped the consumer: ${what}`);
}
