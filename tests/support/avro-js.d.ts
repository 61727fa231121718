/** avro-js (Apache Avro's JavaScript implementation, Powertools' Avro decoder) ships no types; the part the tests use. */
declare module 'avro-js' {
  const avro: { parse(schema: string): { fromBuffer(bytes: Buffer): unknown } };
  export default avro;
}
