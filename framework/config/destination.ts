import type { Destination } from './types.ts';

/**
 * Pure: `destinationConfig.onFailure.destination` -> a Destination. Accepted forms:
 * `kafka://<topic>` (same cluster as the trigger), an SQS queue ARN
 * `arn:aws:sqs:<region>:<12-digit account>:<queue>`, an SNS topic ARN
 * `arn:aws:sns:<region>:<12-digit account>:<topic>` and an S3 bucket ARN `arn:aws:s3:::<bucket>`.
 * Each form is one regular expression; DESTINATION_PATTERN joins them for the JSON schema, so
 * the schema and this parser accept exactly the same strings. When a string is refused, the
 * parser says which part is wrong.
 */

/** A Kafka topic name, as the `topic` property: 1–249 letters, digits, ".", "_" or "-". */
export const TOPIC_NAME = '[a-zA-Z0-9._-]{1,249}';
const REGION = '[a-z]{2}(?:-[a-z]+)+-[0-9]{1,2}';
const ACCOUNT = '[0-9]{12}';
/** SQS: 1–80 letters, digits, "-" or "_"; a FIFO queue's name ends in `.fifo` (within the 80). */
const QUEUE_NAME = '(?:[A-Za-z0-9_-]{1,75}\\.fifo|[A-Za-z0-9_-]{1,80})';
/** SNS: 1–256 letters, digits, "-" or "_"; a FIFO topic's name ends in `.fifo` (within the 256). */
const SNS_TOPIC_NAME = '(?:[A-Za-z0-9_-]{1,251}\\.fifo|[A-Za-z0-9_-]{1,256})';
/**
 * S3 bucket naming rules: 3–63 lowercase letters, digits, "." or "-", starting and ending with a
 * letter or digit, no two adjacent periods, not formatted as an IP address.
 */
const BUCKET = '(?![0-9]{1,3}(?:\\.[0-9]{1,3}){3}$)(?![a-z0-9.-]*\\.\\.)[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]';

const FORMS = {
  kafka: `kafka://(${TOPIC_NAME})`,
  sqs: `arn:aws:sqs:(${REGION}):(${ACCOUNT}):(${QUEUE_NAME})`,
  sns: `arn:aws:sns:(${REGION}):(${ACCOUNT}):(${SNS_TOPIC_NAME})`,
  s3: `arn:aws:s3:::(${BUCKET})`,
} as const;

/** Every accepted destination, for the JSON schema's `pattern`. */
export const DESTINATION_PATTERN = `^(?:${Object.values(FORMS).map((f) => f.replace(/\((?!\?)/g, '(?:')).join('|')})$`;

/** The accepted forms with an example of each: the "how to fix" sentence of a refused destination. */
export const DESTINATION_FORMS =
  'destination is where records go that fail every retry or expire: kafka://<topic> (e.g. kafka://orders-failed), ' +
  'an SQS queue ARN (e.g. arn:aws:sqs:us-east-1:123456789012:orders-failed), ' +
  'an SNS topic ARN (e.g. arn:aws:sns:us-east-1:123456789012:orders-failed) ' +
  'or an S3 bucket ARN (e.g. arn:aws:s3:::orders-failed).';

export type ParsedDestination = { destination: Destination; problem?: undefined } | { destination?: undefined; problem: string };

const full = (source: string) => new RegExp(`^${source}$`, 'u');
const MATCHERS = {
  kafka: full(FORMS.kafka),
  sqs: full(FORMS.sqs),
  sns: full(FORMS.sns),
  s3: full(FORMS.s3),
};

/** `problem` says what is wrong, to be written as `<path>: <problem> (got <value>). <DESTINATION_FORMS>`. */
export function parseDestination(uri: string): ParsedDestination {
  const kafka = MATCHERS.kafka.exec(uri);
  if (kafka?.[1] !== undefined) return { destination: { kind: 'kafka', uri, topic: kafka[1] } };
  for (const kind of ['sqs', 'sns'] as const) {
    const [, region, accountId, name] = MATCHERS[kind].exec(uri) ?? [];
    if (region !== undefined && accountId !== undefined && name !== undefined) {
      return { destination: { kind, uri, region, accountId, name } };
    }
  }
  const bucket = MATCHERS.s3.exec(uri)?.[1];
  if (bucket !== undefined) return { destination: { kind: 's3', uri, bucket } };
  return { problem: whatIsWrong(uri) };
}

/** For a string no form accepts: which part of which form is wrong. */
function whatIsWrong(uri: string): string {
  if (uri.startsWith('kafka://')) {
    return 'must be kafka:// followed by a topic name of 1–249 letters, digits, ".", "_" or "-"';
  }
  const arn = /^arn:aws:(sqs|sns):(.*)$/.exec(uri);
  if (arn !== null) {
    const [service = '', rest = ''] = arn.slice(1);
    const parts = rest.split(':');
    const [region = '', account = '', name = ''] = parts;
    if (parts.length !== 3) {
      const label = service === 'sqs' ? 'an SQS queue ARN' : 'an SNS topic ARN';
      return `must be ${label} of the form arn:aws:${service}:<region>:<12-digit account>:<name>`;
    }
    if (!full(REGION).test(region)) return `must name a region such as us-east-1, not "${region}"`;
    if (!full(ACCOUNT).test(account)) return `must name a 12-digit account, not "${account}"`;
    return service === 'sqs'
      ? `must name a queue of 1–80 letters, digits, "-" or "_" (ending in .fifo for a FIFO queue), not "${name}"`
      : `must name a topic of 1–256 letters, digits, "-" or "_" (ending in .fifo for a FIFO topic), not "${name}"`;
  }
  if (uri.startsWith('arn:aws:s3:')) {
    if (!uri.startsWith('arn:aws:s3:::')) return 'must be an S3 bucket ARN of the form arn:aws:s3:::<bucket>, with no region or account';
    return (
      'must name a bucket of 3–63 lowercase letters, digits, "." or "-" that starts and ends with a letter or digit, ' +
      `has no ".." and is not an IP address, not "${uri.slice('arn:aws:s3:::'.length)}"`
    );
  }
  if (/^arn:aws-/.test(uri)) return 'must be an ARN in the aws partition (arn:aws:…); other partitions are not supported';
  if (uri.startsWith('arn:')) return 'must be an SQS queue, SNS topic or S3 bucket ARN; no other AWS service is a Sluice destination';
  return 'must be kafka://<topic> or an SQS queue, SNS topic or S3 bucket ARN';
}
