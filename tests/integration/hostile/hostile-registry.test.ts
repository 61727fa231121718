/**
 * The hostile tier's registry half (README, "Bounds on hostile input"): records framed in
 * Confluent's wire format (magic 0, a 4-byte schema id) are produced to the real broker, and the
 * trigger's `schemaRegistryUri` is a loopback registry that answers each id with something
 * hostile: a huge body, references that loop or fan out deep and wide, malformed JSON, a malformed
 * `references` value, a JSON Schema whose pattern backtracks exponentially in a native RegExp
 * (against crafted values), one with a backreference, one past the compile bounds, an unknown id,
 * and an answer trickled a byte at a time; and the shapes of issue 40 round two: Avro items of no
 * bytes (a 5-byte payload declaring up to 2^32-1), uniqueItems over up to 40,000 objects, 300
 * counted-repeat patterns past maxPatternProgram, and 100 references of 100 KiB (past
 * maxSchemaBytes at the third). Honest records of a good schema are mixed in.
 *
 * Each record naming an unusable schema goes to the destination (DESERIALIZATION_ERROR, or
 * SCHEMA_NOT_FOUND for the unknown id); the rest are invoked or filtered out. The trickled answer
 * passes registryRequestDeadlineMs, so the registry counts as unavailable and its partition waits
 * (as for a registry that is down: nothing is sent anywhere, nothing skipped); once the registry
 * answers that id properly, the held records are invoked. The trigger never restarts, the event
 * member keeps its session (tier.ts), RSS stays under RSS_BOUND.
 */
import avro from 'avsc';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { INPUT_BOUNDS } from '../../../framework/config/input-bounds.ts';
import { recordsOf, type Harness } from '../../support/harness.ts';
import { startHostileRegistry, type Answer, type HostileRegistry } from '../../support/hostile-registry.ts';
import { deleteTopic, uniqueName, waitFor } from '../../support/kafka.ts';
import { createTopics, describeCounts, produceAll, RSS_BOUND, runToEnd, type Fate } from './tier.ts';

const PARTITIONS = 2;
const DOC_AVRO = JSON.stringify({ type: 'record', name: 'Doc', fields: [{ name: 'keep', type: 'boolean' }, { name: 'n', type: 'int' }] });
const doc = avro.Type.forSchema(JSON.parse(DOC_AVRO) as avro.Schema);
const EVIL_JSON_SCHEMA = JSON.stringify({ type: 'object', properties: { keep: { type: 'boolean' }, s: { type: 'string', pattern: '^(a|a)*$' } }, required: ['keep'] });
const ref = (subject: string) => ({ name: subject, subject, version: 1 });
/** Items of no bytes (issue 40, item 5): a 5-byte payload may declare 2^32-1 of them. */
const ZERO_BYTE_ITEMS_AVRO = JSON.stringify({ type: 'record', name: 'Zeros', fields: [{ name: 'keep', type: 'boolean' }, { name: 'xs', type: { type: 'array', items: 'null' } }] });
const zeros = avro.Type.forSchema(JSON.parse(ZERO_BYTE_ITEMS_AVRO) as avro.Schema);
/** uniqueItems over objects (item 6): quadratic in Ajv's own keyword. */
const UNIQUE_ITEMS_JSON_SCHEMA = JSON.stringify({ type: 'object', properties: { keep: { type: 'boolean' }, xs: { type: 'array', uniqueItems: true } }, required: ['keep'] });
/** Counted repeats (item 12): each `(?:k12){1000}` compiles to about 3,000 RE2 instructions, 300 of them past maxPatternProgram. */
const PATTERN_PROGRAM_JSON_SCHEMA = JSON.stringify({ type: 'object', properties: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`p${i}`, { type: 'string', pattern: '^(?:k12){1000}$' }])) });
/** References of 100 KiB each (item 7): maxSchemaBytes (256 KiB) is passed at the third, before the others are fetched. */
const BIG_REFERENCES = 100;
const bigReference = (i: number) => ({ json: { schema: JSON.stringify({ type: 'enum', name: `E${i}`, doc: 'x'.repeat(100 * 1024), symbols: ['A'] }) } });

/** The array's block count: an Avro long (up to 2^32-1 here, well inside a double). */
const blockCount = avro.Type.forSchema('long');
const avroAnswer = (references: unknown[] = []) => ({ json: { schema: DOC_AVRO, references } });

/** What the registry answers for each schema id, and what becomes of a record naming it. */
const IDS = {
  good: { id: 1, answer: avroAnswer() },
  huge: { id: 2, answer: { hugeBytes: 5 * 1024 * 1024 } },
  loop: { id: 3, answer: avroAnswer([ref('loop-a')]) },
  deep: { id: 4, answer: avroAnswer([ref('deep-1-0'), ref('deep-1-1')]) },
  wide: { id: 5, answer: avroAnswer(Array.from({ length: 300 }, (_, i) => ref(`wide-${i}`))) },
  malformedJson: { id: 6, answer: { raw: '{"schema": "{\\"type\\": \\"string\\"' } },
  malformedReferences: { id: 7, answer: { json: { schema: DOC_AVRO, references: 'loop-a' } } },
  referenceNotAReference: { id: 8, answer: { json: { schema: DOC_AVRO, references: [{ name: 1, subject: null }] } } },
  evilPattern: { id: 9, answer: { json: { schemaType: 'JSON', schema: EVIL_JSON_SCHEMA } } },
  backreference: { id: 10, answer: { json: { schemaType: 'JSON', schema: JSON.stringify({ type: 'string', pattern: '^(a)\\1$' }) } } },
  pastCompileBounds: { id: 11, answer: { json: { schema: JSON.stringify({ type: 'record', name: 'Wide', fields: Array.from({ length: 600 }, (_, i) => ({ name: `f${i}`, type: 'int' })) }) } } },
  unknown: { id: 12, answer: undefined },
  trickled: { id: 13, answer: { trickle: { schema: DOC_AVRO }, everyMs: 100 } },
  zeroByteItems: { id: 14, answer: { json: { schema: ZERO_BYTE_ITEMS_AVRO } } },
  uniqueItems: { id: 15, answer: { json: { schemaType: 'JSON', schema: UNIQUE_ITEMS_JSON_SCHEMA } } },
  patternProgram: { id: 16, answer: { json: { schemaType: 'JSON', schema: PATTERN_PROGRAM_JSON_SCHEMA } } },
  referencesPastSchemaBytes: { id: 17, answer: avroAnswer(Array.from({ length: BIG_REFERENCES }, (_, i) => ref(`big-${i}`))) },
} satisfies Record<string, { id: number; answer: Answer | undefined }>;
type Kind = keyof typeof IDS;

/** The references behind them: a loop a -> b -> a; a chain two wide and 40 deep (past maxReferenceDepth); 300 side by side (past maxReferences). */
function referencedSchemas(registry: HostileRegistry): void {
  const at = (subject: string) => `/subjects/${subject}/versions/1`;
  registry.set(at('loop-a'), avroAnswer([ref('loop-b')]));
  registry.set(at('loop-b'), avroAnswer([ref('loop-a')]));
  for (let depth = 1; depth <= 40; depth++) for (const j of [0, 1]) registry.set(at(`deep-${depth}-${j}`), avroAnswer([ref(`deep-${depth + 1}-0`), ref(`deep-${depth + 1}-1`)]));
  for (let i = 0; i < 300; i++) registry.set(at(`wide-${i}`), { json: { schema: '"string"' } });
  for (let i = 0; i < BIG_REFERENCES; i++) registry.set(at(`big-${i}`), bigReference(i));
}

const frame = (id: number, payload: Buffer) => Buffer.concat([Buffer.from([0, id >>> 24, (id >>> 16) & 0xff, (id >>> 8) & 0xff, id & 0xff]), payload]);

interface RegistryRecord {
  kind: Kind;
  value: Buffer;
  fate: Fate;
}

/** The records, drawn from the seed: honest ones of the good and the trickled schema (kept or filtered on `keep`), and each hostile kind. */
function registryRecords(seed: number): RegistryRecord[] {
  const honest = (kind: 'good' | 'trickled') => fc.tuple(fc.boolean(), fc.integer()).map(([keep, n]): RegistryRecord => ({ kind, value: frame(IDS[kind].id, doc.toBuffer({ keep, n: n | 0 })), fate: keep ? 'invoked' : 'filtered' }));
  const failing = (kind: Kind, reason = 'DESERIALIZATION_ERROR') => fc.tuple(fc.boolean(), fc.integer()).map(([keep, n]): RegistryRecord => ({ kind, value: frame(IDS[kind].id, doc.toBuffer({ keep, n: n | 0 })), fate: `destination:${reason}` }));
  const evil = fc.oneof(
    fc.integer({ min: 10_000, max: 50_000 }).map((n): RegistryRecord => ({ kind: 'evilPattern', value: frame(IDS.evilPattern.id, Buffer.from(JSON.stringify({ keep: true, s: `${'a'.repeat(n)}!` }))), fate: 'destination:DESERIALIZATION_ERROR' })),
    fc.integer({ min: 0, max: 50_000 }).map((n): RegistryRecord => ({ kind: 'evilPattern', value: frame(IDS.evilPattern.id, Buffer.from(JSON.stringify({ keep: true, s: 'a'.repeat(n) }))), fate: 'invoked' })),
  );
  // Items of no bytes: a count within maxAvroItems decodes (kept or filtered); one past it (up to 2^32-1, 5 bytes) is the record's own failure.
  const zeroItems = fc.oneof(
    fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 2_000 })).map(([keep, n]): RegistryRecord => ({ kind: 'zeroByteItems', value: frame(IDS.zeroByteItems.id, zeros.toBuffer({ keep, xs: Array.from({ length: n }, () => null) })), fate: keep ? 'invoked' : 'filtered' })),
    fc.bigInt({ min: BigInt(INPUT_BOUNDS.maxAvroItems) + 1n, max: 2n ** 32n - 1n }).map((n): RegistryRecord => ({ kind: 'zeroByteItems', value: frame(IDS.zeroByteItems.id, Buffer.concat([Buffer.from([1]), blockCount.toBuffer(Number(n)), Buffer.from([0])])), fate: 'destination:DESERIALIZATION_ERROR' })),
  );
  // uniqueItems over up to 40,000 objects (24.6 s in Ajv's keyword): unique ones pass, one repeated at the end fails the schema.
  const unique = fc.tuple(fc.boolean(), fc.integer({ min: 1_000, max: 40_000 }), fc.boolean()).map(([keep, n, repeated]): RegistryRecord => {
    const xs = Array.from({ length: n }, (_, i) => ({ i }));
    if (repeated) xs.push({ i: n - 1 });
    return { kind: 'uniqueItems', value: frame(IDS.uniqueItems.id, Buffer.from(JSON.stringify({ keep, xs }))), fate: repeated ? 'destination:DESERIALIZATION_ERROR' : keep ? 'invoked' : 'filtered' };
  });
  const draw = <T>(a: fc.Arbitrary<T>, n: number, salt: number) => fc.sample(a, { seed: seed + salt, numRuns: n });
  const all = [
    ...draw(honest('good'), 40, 1), ...draw(honest('trickled'), 10, 2), ...draw(evil, 10, 3),
    ...(['huge', 'loop', 'deep', 'wide', 'malformedJson', 'malformedReferences', 'referenceNotAReference', 'backreference', 'pastCompileBounds', 'patternProgram', 'referencesPastSchemaBytes'] as const).flatMap((k, i) => draw(failing(k), 4, 10 + i)),
    ...draw(failing('unknown', 'SCHEMA_NOT_FOUND'), 4, 30),
    ...draw(zeroItems, 6, 31), ...draw(unique, 4, 32),
  ];
  return fc.sample(fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length }), { seed, numRuns: 1 })[0]!;
}

describe('hostile schema registry', () => {
  const topics: string[] = [];
  let h: Harness | undefined;
  let registry: HostileRegistry | undefined;
  afterAll(async () => {
    await h?.stop();
    await registry?.close();
    await Promise.all(topics.map(deleteTopic));
  });

  it('fails the records of every unusable answer alone, holds those of a trickled one until it answers, and keeps the trigger up', async () => {
    const seed = Number(process.env.SLUICE_HOSTILE_SEED ?? Date.now() % 1_000_000);
    const records = registryRecords(seed);
    const kinds = new Map<string, number>();
    for (const r of records) kinds.set(r.kind, (kinds.get(r.kind) ?? 0) + 1);
    console.log(`[hostile registry] seed ${seed}: ${records.length} records: ${describeCounts(kinds)}`);

    registry = await startHostileRegistry();
    for (const { id, answer } of Object.values(IDS)) if (answer) registry.set(`/schemas/ids/${id}`, answer);
    referencedSchemas(registry);
    const topic = uniqueName('hostile-registry');
    const failed = `${topic}-failed`;
    topics.push(topic, failed);
    await createTopics([[topic, 1024 * 1024], [failed, 8 * 1024 * 1024]], PARTITIONS);
    const expected = await produceAll(topic, records.map((r) => ({ kind: r.kind, codec: 'none', records: [r] })), PARTITIONS);

    const held: string[] = [];
    let trickledBeforeAnswer = -1;
    const run = await runToEnd({
      label: 'hostile registry', topic, failed, expected, started: (started) => (h = started),
      trigger: { batchSize: 20, schemaRegistry: { uri: registry.url, format: 'JSON', key: false, value: true, access: {} } },
      async whileRunning(running) {
        running.events.on('poller.registry_unavailable', (e) => held.push(`${e.partition}:${e.firstOffset} ${e.error}`));
        await waitFor('a partition held on the trickled answer', () => held.some((e) => e.includes(`/schemas/ids/${IDS.trickled.id}`)), 60_000, 200);
        // Nothing of the trickled schema is invoked while the registry has not answered for it.
        trickledBeforeAnswer = running.seen().flatMap(recordsOf).filter((r) => expected.get(`${r.partition}:${r.offset}`)?.kind === 'trickled/none').length;
        registry!.set(`/schemas/ids/${IDS.trickled.id}`, avroAnswer());
      },
    });
    const bigFetched = Array.from({ length: BIG_REFERENCES }, (_, i) => registry!.requests(`/subjects/big-${i}/versions/1`)).filter((n) => n > 0).length;
    console.log(`[hostile registry] held ${held.length} times before the trickled id answered (${held[0]}); registry requests ${registry.requests()} (deep chain ${countDeep(registry)}, ${registry.requests('/subjects/wide-0/versions/1')} per wide subject, ${bigFetched} of the ${BIG_REFERENCES} big references)`);
    // maxSchemaBytes is counted as references arrive: the third 100 KiB reference passes it, and no further one is fetched.
    expect(bigFetched).toBeLessThanOrEqual(3);
    expect(run.stopped).toEqual([]);
    expect(trickledBeforeAnswer).toBe(0);
    expect(run.wrong).toEqual([]);
    expect(run.filtered.reported).toBeGreaterThanOrEqual(run.filtered.expected);
    expect(run.session).toEqual({ failedHeartbeats: 0, rebalances: 0, joins: 1 });
    expect(run.rss).toBeLessThan(RSS_BOUND);
  });
});

/** Requests for the deep chain's subjects: memoised, it is at most two a level, never 2^depth. */
function countDeep(registry: HostileRegistry): number {
  let n = 0;
  for (let depth = 1; depth <= 40; depth++) for (const j of [0, 1]) n += registry.requests(`/subjects/deep-${depth}-${j}/versions/1`);
  return n;
}
