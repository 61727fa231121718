import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { DESTINATION_FORMS } from './destination.ts';
import { FILTER_PATTERNS_DESCRIPTION, sluiceCustomSchema, sluiceEventSchema } from './schema.ts';
import { checkSluiceCustom, checkSluiceEvent } from './validate.ts';

const AT = 'functions.orders.events[0].sluice';
const problemsOf = (event: unknown) => checkSluiceEvent(event, AT).problems;

describe('sluice event schema', () => {
  it('compiles under the options the Serverless Framework validates serverless.yml with', () => {
    const serverlessAjv = new Ajv({ allErrors: true, coerceTypes: 'array', verbose: true, strict: true, strictRequired: false });
    const validate = serverlessAjv.compile(sluiceEventSchema);
    expect(validate({ topic: 'orders', bootstrapServers: 'a:9092,b:9092', batchSize: 10 })).toBe(true);
    expect(validate({ topic: 'orders', batchsize: 10 })).toBe(false);
    expect(serverlessAjv.compile(sluiceCustomSchema)({ bootstrapServers: ['a:9092'], maxPollIntervalMs: 600_000 })).toBe(true);
  });

  it('accepts a full trigger and returns it', () => {
    const event = {
      topic: 'orders.v1_x-y',
      bootstrapServers: ['broker-1:9092', '[::1]:9093'],
      batchSize: 10000,
      maximumBatchingWindow: 300,
      startingPosition: 'AT_TIMESTAMP',
      startingPositionTimestamp: 1_700_000_000,
      consumerGroupId: 'orders/processor:v1+a=b.c@d*',
      enabled: false,
      maxPollIntervalMs: 600_000,
      sessionTimeoutMs: 45_000,
      heartbeatIntervalMs: 5_000,
      concurrency: 16,
    };
    expect(checkSluiceEvent(event, AT)).toEqual({ value: event, problems: [] });
  });

  it('coerces strings from environment variables and treats empty values as unset', () => {
    expect(checkSluiceEvent({ topic: 'orders', batchSize: '500', enabled: 'false', consumerGroupId: null }, AT).value).toEqual({
      topic: 'orders',
      batchSize: 500,
      enabled: false,
    });
  });

  it('suggests the closest name for an unknown property', () => {
    expect(problemsOf({ topic: 'orders', batchsize: 10 })).toEqual([`${AT}: unknown property "batchsize". Did you mean "batchSize"?`]);
    expect(problemsOf({ topic: 'orders', startingPositon: 'LATEST' })[0]).toContain('Did you mean "startingPosition"?');
  });

  it('bounds parallelizationFactor to 1–10, as AWS, saying what it does', () => {
    expect(problemsOf({ topic: 'orders', parallelizationFactor: 10 })).toEqual([]);
    expect(problemsOf({ topic: 'orders', parallelizationFactor: 10, engine: 'librdkafka' })).toEqual([]);
    expect(problemsOf({ topic: 'orders', parallelizationFactor: 11 })).toEqual([
      `${AT}.parallelizationFactor: must be at most 10 (got 11). parallelizationFactor is how many invocations of one partition may run at once, 1–10: ` +
        'records with the same key stay in offset order, records without a key in partition order (ordering: unordered keeps none); 1 keeps the whole partition in order.',
    ]);
  });

  it('takes ordering key or unordered', () => {
    expect(problemsOf({ topic: 'orders', parallelizationFactor: 4, ordering: 'unordered' })).toEqual([]);
    expect(problemsOf({ topic: 'orders', parallelizationFactor: 4, ordering: 'none' })[0]).toMatch(/^functions\.orders\.events\[0\]\.sluice\.ordering: must be one of key, unordered \(got "none"\)\. ordering is what parallelizationFactor above 1 keeps in order/);
  });

  it('lists the allowed names when nothing is close', () => {
    expect(problemsOf({ topic: 'orders', retries: 3 })).toEqual([
      `${AT}: unknown property "retries". Allowed properties: topic, bootstrapServers, batchSize, parallelizationFactor, consumptionMode, ordering, engine, groupProtocol, groupInstanceId, maximumBatchingWindow, ` +
        'startingPosition, startingPositionTimestamp, consumerGroupId, enabled, maxPollIntervalMs, sessionTimeoutMs, ' +
        'heartbeatIntervalMs, concurrency, maxConsumerRestarts, maximumRetryAttempts, maximumRecordAgeInSeconds, bisectBatchOnFunctionError, ' +
        'functionResponseType, destinationConfig, filterPatterns, accessConfigurations, tls, arn, schemaRegistryConfig.',
    ]);
  });

  it('refuses batchSize 0 and 10001 with the range', () => {
    const hint = 'batchSize is the number of records per invocation, 1–10000.';
    expect(problemsOf({ topic: 'orders', batchSize: 0 })).toEqual([`${AT}.batchSize: must be at least 1 (got 0). ${hint}`]);
    expect(problemsOf({ topic: 'orders', batchSize: 10001 })).toEqual([`${AT}.batchSize: must be at most 10000 (got 10001). ${hint}`]);
    expect(problemsOf({ topic: 'orders', batchSize: 1.5 })[0]).toContain(`${AT}.batchSize: must be an integer (got 1.5).`);
  });

  it('requires a topic and checks its name', () => {
    expect(problemsOf({ batchSize: 10 })).toEqual([`${AT}: missing required property "topic" (the Kafka topic to consume).`]);
    expect(problemsOf(null)).toEqual([`${AT}: missing required property "topic" (the Kafka topic to consume).`]);
    expect(problemsOf({ topic: 'my orders' })[0]).toMatch(/^functions\.orders\.events\[0\]\.sluice\.topic: must be a valid Kafka topic name \(got "my orders"\)\. topic is/);
  });

  it('requires startingPositionTimestamp with AT_TIMESTAMP, and only then', () => {
    expect(problemsOf({ topic: 'orders', startingPosition: 'AT_TIMESTAMP' })).toEqual([
      `${AT}: missing required property "startingPositionTimestamp" (startingPosition AT_TIMESTAMP needs the time to start from, in epoch seconds).`,
    ]);
    expect(problemsOf({ topic: 'orders', startingPosition: 'LATEST', startingPositionTimestamp: 1 })).toEqual([
      `${AT}: startingPositionTimestamp is only allowed with startingPosition AT_TIMESTAMP (got startingPosition "LATEST"). ` +
        'Set startingPosition: AT_TIMESTAMP, or remove startingPositionTimestamp.',
    ]);
    expect(problemsOf({ topic: 'orders', startingPosition: 'EARLIEST' })[0]).toContain(
      `${AT}.startingPosition: must be one of LATEST, TRIM_HORIZON, AT_TIMESTAMP (got "EARLIEST").`,
    );
  });

  it('refuses bad broker lists, pointing at the bad entry', () => {
    expect(problemsOf({ topic: 'orders', bootstrapServers: 'localhost' })[0]).toContain(
      `${AT}.bootstrapServers: must be "host:port" or a comma-separated list of them (got "localhost"). bootstrapServers lists`,
    );
    expect(problemsOf({ topic: 'orders', bootstrapServers: ['a:1', 'b'] })[0]).toContain(`${AT}.bootstrapServers[1]: must be "host:port" (got "b").`);
    expect(problemsOf({ topic: 'orders', bootstrapServers: [] })[0]).toContain(`${AT}.bootstrapServers: must list at least 1 item(s) (got []).`);
    expect(problemsOf({ topic: 'orders', bootstrapServers: { a: 1 } })[0]).toContain(
      `${AT}.bootstrapServers: must be a list of "host:port" strings or one comma-separated string (got {"a":1}).`,
    );
  });

  it('refuses consumer-group tuning out of range, with the range and the fallback', () => {
    const hints = {
      maxPollIntervalMs:
        "maxPollIntervalMs is how long the member may stay away from the group protocol, in ms (the rebalance timeout; Java's " +
        "max.poll.interval.ms), an integer 1000–3600000 that leaves room for the function's timeout; omit it for custom.sluice.maxPollIntervalMs, else 300000.",
      sessionTimeoutMs:
        'sessionTimeoutMs is how long the group waits for a heartbeat before it removes the member, in ms, an integer 1000–3600000 ' +
        'that the broker also allows (group.min/max.session.timeout.ms); omit it for custom.sluice.sessionTimeoutMs, else 30000.',
      heartbeatIntervalMs:
        'heartbeatIntervalMs is how often the member sends a heartbeat, in ms, an integer 100–1200000 below a third of sessionTimeoutMs; ' +
        'omit it for custom.sluice.heartbeatIntervalMs, else 3000.',
      concurrency:
        'concurrency is how many partitions of a trigger one poller processes at the same time, an integer 1–100; omit it for custom.sluice.concurrency, else 4.',
    };
    const ranges = { maxPollIntervalMs: [1_000, 3_600_000], sessionTimeoutMs: [1_000, 3_600_000], heartbeatIntervalMs: [100, 1_200_000], concurrency: [1, 100] };
    for (const [name, [min = 0, max = 0]] of Object.entries(ranges)) {
      const hint = hints[name as keyof typeof hints];
      expect(problemsOf({ topic: 'orders', [name]: min - 1 })).toEqual([`${AT}.${name}: must be at least ${min} (got ${min - 1}). ${hint}`]);
      expect(problemsOf({ topic: 'orders', [name]: max + 1 })).toEqual([`${AT}.${name}: must be at most ${max} (got ${max + 1}). ${hint}`]);
      expect(problemsOf({ topic: 'orders', [name]: min })).toEqual([]);
      expect(problemsOf({ topic: 'orders', [name]: max })).toEqual([]);
    }
    expect(problemsOf({ topic: 'orders', concurrency: 2.5 })[0]).toContain(`${AT}.concurrency: must be an integer (got 2.5).`);
    expect(checkSluiceEvent({ topic: 'orders', maxPollIntervalMs: '600000' }, AT).value).toEqual({ topic: 'orders', maxPollIntervalMs: 600_000 });
  });

  it('refuses a bad consumerGroupId', () => {
    expect(problemsOf({ topic: 'orders', consumerGroupId: 'my group' })).toEqual([
      `${AT}.consumerGroupId: must contain only letters, digits and -/*:_+=.@ (got "my group"). ` +
        'consumerGroupId is 1–200 letters, digits or -/*:_+=.@ characters; omit it for sluice-<service>-<function> (with -<topic> when the function has several triggers).',
    ]);
    expect(problemsOf({ topic: 'orders', consumerGroupId: 'x'.repeat(201) })[0]).toContain('must be at most 200 characters long');
  });

  it('reports every problem of an event, once each', () => {
    const problems = problemsOf({ topicc: 'orders', batchSize: 0, maximumBatchingWindow: 301, enabled: 'maybe' });
    expect(problems).toHaveLength(5);
    expect(problems.join('\n')).toContain('enabled: must be true or false (got "maybe")');
  });

  it('refuses a trigger that is not a map', () => {
    expect(problemsOf('orders')[0]).toContain(`${AT}: must be a map (got "orders"). A sluice trigger is a map`);
  });
});

describe('sluice event schema: failure policy and filters', () => {
  const hints = {
    maximumRetryAttempts:
      'maximumRetryAttempts is how many times a failed batch is retried before its records go to destinationConfig.onFailure.destination: ' +
      'an integer 0–10000, which needs that destination, or -1, the default, to retry until the record expires ' +
      '(maximumRecordAgeInSeconds); with a destination, -1 means 10 retries, as on AWS.',
    maximumRecordAgeInSeconds:
      'maximumRecordAgeInSeconds is how old a record may get before it goes to destinationConfig.onFailure.destination instead of ' +
      'being retried: an integer 60–604800 (7 days), which needs that destination, or -1, the default, for no limit.',
  };
  const full = {
    topic: 'orders',
    maximumRetryAttempts: 10_000,
    maximumRecordAgeInSeconds: 604_800,
    bisectBatchOnFunctionError: true,
    functionResponseType: 'ReportBatchItemFailures',
    destinationConfig: { onFailure: { destination: 'arn:aws:s3:::orders-failed' } },
    filterPatterns: [{ value: { amount: [{ numeric: ['>', 10] }] } }, '{"value":{"region":[{"prefix":"eu-"}]}}'],
  };

  it('accepts every property, also under the options the Serverless Framework validates with', () => {
    expect(checkSluiceEvent(full, AT)).toEqual({ value: full, problems: [] });
    const serverlessAjv = new Ajv({ allErrors: true, coerceTypes: 'array', verbose: true, strict: true, strictRequired: false });
    expect(serverlessAjv.compile(sluiceEventSchema)(full)).toBe(true);
  });

  it('refuses maximumRetryAttempts outside -1–10000', () => {
    expect(problemsOf({ topic: 'orders', maximumRetryAttempts: -2 })).toEqual([
      `${AT}.maximumRetryAttempts: must be at least -1 (got -2). ${hints.maximumRetryAttempts}`,
    ]);
    expect(problemsOf({ topic: 'orders', maximumRetryAttempts: 10_001 })).toEqual([
      `${AT}.maximumRetryAttempts: must be at most 10000 (got 10001). ${hints.maximumRetryAttempts}`,
    ]);
    expect(problemsOf({ topic: 'orders', maximumRetryAttempts: 1.5 })[0]).toBe(`${AT}.maximumRetryAttempts: must be an integer (got 1.5). ${hints.maximumRetryAttempts}`);
    for (const ok of [-1, 0, 10_000]) expect(problemsOf({ topic: 'orders', maximumRetryAttempts: ok })).toEqual([]);
  });

  it('refuses maximumRecordAgeInSeconds other than -1 or 60–604800, in one line', () => {
    for (const bad of [-2, 0, 59, 604_801]) {
      expect(problemsOf({ topic: 'orders', maximumRecordAgeInSeconds: bad })).toEqual([
        `${AT}.maximumRecordAgeInSeconds: must be -1 or 60–604800 (got ${bad}). ${hints.maximumRecordAgeInSeconds}`,
      ]);
    }
    expect(problemsOf({ topic: 'orders', maximumRecordAgeInSeconds: 'soon' })).toEqual([
      `${AT}.maximumRecordAgeInSeconds: must be an integer (got "soon"). ${hints.maximumRecordAgeInSeconds}`,
    ]);
    for (const ok of [-1, 60, 604_800]) expect(problemsOf({ topic: 'orders', maximumRecordAgeInSeconds: ok })).toEqual([]);
    expect(checkSluiceEvent({ topic: 'orders', maximumRecordAgeInSeconds: '-1' }, AT).value).toEqual({ topic: 'orders', maximumRecordAgeInSeconds: -1 });
  });

  it('refuses a bisectBatchOnFunctionError or functionResponseType of another kind', () => {
    expect(problemsOf({ topic: 'orders', bisectBatchOnFunctionError: 'yes' })).toEqual([
      `${AT}.bisectBatchOnFunctionError: must be true or false (got "yes"). bisectBatchOnFunctionError is true or false: ` +
        'true splits a failed batch in two and retries each half, so one bad record does not hold back the others; default false.',
    ]);
    expect(problemsOf({ topic: 'orders', functionResponseType: 'ReportItemFailures' })).toEqual([
      `${AT}.functionResponseType: must be one of ReportBatchItemFailures (got "ReportItemFailures"). functionResponseType: ` +
        'ReportBatchItemFailures lets the handler return { batchItemFailures: [{ itemIdentifier }] } so that only the records ' +
        'from the lowest failed one on are retried; omit it to retry the whole batch.',
    ]);
  });

  it('refuses a destination that is neither kafka:// nor a supported ARN, listing the forms', () => {
    const at = `${AT}.destinationConfig.onFailure.destination`;
    const problemsFor = (destination: unknown) => problemsOf({ topic: 'orders', destinationConfig: { onFailure: { destination } } });
    expect(problemsFor('orders-failed')).toEqual([
      `${at}: must be kafka://<topic> or an SQS queue, SNS topic or S3 bucket ARN (got "orders-failed"). ${DESTINATION_FORMS}`,
    ]);
    expect(problemsFor('arn:aws:sqs:us-east-1:1234:q')).toEqual([
      `${at}: must name a 12-digit account, not "1234" (got "arn:aws:sqs:us-east-1:1234:q"). ${DESTINATION_FORMS}`,
    ]);
    expect(problemsFor('kafka://my topic')[0]).toContain(`${at}: must be kafka:// followed by a topic name`);
    expect(problemsFor('arn:aws:s3:::My_Bucket')[0]).toContain(`${at}: must name a bucket of 3–63 lowercase letters`);
    expect(DESTINATION_FORMS).toBe(
      'destination is where records go that fail every retry or expire: kafka://<topic> (e.g. kafka://orders-failed), ' +
        'an SQS queue ARN (e.g. arn:aws:sqs:us-east-1:123456789012:orders-failed), ' +
        'an SNS topic ARN (e.g. arn:aws:sns:us-east-1:123456789012:orders-failed) or an S3 bucket ARN (e.g. arn:aws:s3:::orders-failed).',
    );
    for (const ok of ['kafka://orders-failed', 'arn:aws:sqs:us-east-1:123456789012:q', 'arn:aws:sns:us-east-1:123456789012:t', 'arn:aws:s3:::b-1']) {
      expect(problemsFor(ok)).toEqual([]);
    }
  });

  it('checks the shape of destinationConfig at each level', () => {
    const shape = (destinationConfig: unknown) => problemsOf({ topic: 'orders', destinationConfig });
    expect(shape('kafka://orders-failed')).toEqual([
      `${AT}.destinationConfig: must be a map (got "kafka://orders-failed"). destinationConfig.onFailure.destination is where records go ` +
        'that fail every retry or expire, e.g. destinationConfig: { onFailure: { destination: kafka://orders-failed } }.',
    ]);
    expect(shape({ onfailure: { destination: 'kafka://x' } })).toEqual([
      `${AT}.destinationConfig: missing required property "onFailure" (where records go that fail every retry or expire, e.g. onFailure: { destination: kafka://orders-failed }).`,
      `${AT}.destinationConfig: unknown property "onfailure". Did you mean "onFailure"?`,
    ]);
    expect(shape({ onFailure: { destination: 'kafka://x', type: 'kafka' } })).toEqual([
      `${AT}.destinationConfig.onFailure: unknown property "type". Allowed properties: destination.`,
    ]);
    expect(shape({ onFailure: {} })).toEqual([
      `${AT}.destinationConfig.onFailure: missing required property "destination" (kafka://<topic> or an SQS queue, SNS topic or S3 bucket ARN, e.g. destination: kafka://orders-failed).`,
    ]);
  });

  it('takes filter patterns as maps or JSON strings, at most 10', () => {
    const pattern = { value: { status: ['ERROR'] } };
    expect(problemsOf({ topic: 'orders', filterPatterns: [pattern, JSON.stringify(pattern)] })).toEqual([]);
    expect(problemsOf({ topic: 'orders', filterPatterns: Array.from({ length: 10 }, () => pattern) })).toEqual([]);
    expect(problemsOf({ topic: 'orders', filterPatterns: Array.from({ length: 11 }, () => pattern) })).toEqual([
      `${AT}.filterPatterns: must list at most 10 item(s) (got ${JSON.stringify(Array.from({ length: 11 }, () => pattern)).slice(0, 57)}...). ${FILTER_PATTERNS_DESCRIPTION}`,
    ]);
    expect(problemsOf({ topic: 'orders', filterPatterns: pattern })).toEqual([
      `${AT}.filterPatterns: must be a list (got {"value":{"status":["ERROR"]}}). ${FILTER_PATTERNS_DESCRIPTION}`,
    ]);
    expect(problemsOf({ topic: 'orders', filterPatterns: [pattern, [pattern]] })).toEqual([
      `${AT}.filterPatterns[1]: must be a filter pattern: a map, or a JSON string of one (got [{"value":{"status":["ERROR"]}}]). ${FILTER_PATTERNS_DESCRIPTION}`,
    ]);
  });
});

describe('custom.sluice schema', () => {
  it('accepts bootstrapServers and the consumer-group tuning, nothing else', () => {
    const tuning = { maxPollIntervalMs: 600_000, sessionTimeoutMs: 45_000, heartbeatIntervalMs: 5_000, concurrency: 16 };
    expect(checkSluiceCustom({ bootstrapServers: 'a:9092', ...tuning })).toEqual({ value: { bootstrapServers: 'a:9092', ...tuning }, problems: [] });
    expect(checkSluiceCustom(undefined).value).toEqual({});
    expect(checkSluiceCustom({ bootstrapServer: 'a:9092' }).problems).toEqual([
      'custom.sluice: unknown property "bootstrapServer". Did you mean "bootstrapServers"?',
    ]);
  });

  it('refuses tuning out of range, saying what an omitted value falls back to', () => {
    expect(checkSluiceCustom({ concurrency: 0, heartbeatIntervalMs: 99 }).problems).toEqual([
      'custom.sluice.heartbeatIntervalMs: must be at least 100 (got 99). heartbeatIntervalMs is how often the member sends a heartbeat, ' +
        'in ms, an integer 100–1200000 below a third of sessionTimeoutMs; omit it for 3000.',
      'custom.sluice.concurrency: must be at least 1 (got 0). concurrency is how many partitions of a trigger one poller processes ' +
        'at the same time, an integer 1–100; omit it for 4.',
    ]);
    expect(checkSluiceCustom({ maxPollIntervalMs: 3_600_001 }).problems[0]).toMatch(
      /^custom\.sluice\.maxPollIntervalMs: must be at most 3600000 \(got 3600001\)\. maxPollIntervalMs is .*; omit it for 300000\.$/,
    );
  });

  it('takes a CloudWatch namespace and period for the metrics, refusing AWS/ namespaces and periods out of range', () => {
    expect(checkSluiceCustom({ metrics: { namespace: 'Shop/Sluice', period: 10 } }).problems).toEqual([]);
    const [namespace, period] = checkSluiceCustom({ metrics: { namespace: 'AWS/Lambda', period: 0 } }).problems;
    expect(namespace).toMatch(/^custom\.sluice\.metrics\.namespace: .*namespace is the CloudWatch namespace of the poller's metrics .*not starting with : or AWS\/, e\.g\. Shop\/Sluice; default Sluice\.$/);
    expect(period).toBe('custom.sluice.metrics.period: must be at least 1 (got 0). period is how often, in seconds, the poller writes its metrics to the log, an integer 1–3600 (below 60: high-resolution metrics); default 60.');
  });
});
