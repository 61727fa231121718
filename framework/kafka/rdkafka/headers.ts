/**
 * A consumed record's headers as the binding hands them over: one object per header,
 * `{ [name]: Buffer }`, built in C++ with an ordinary property set (src/common.cc). For a header
 * named `__proto__` that set is the prototype's setter: the object gets no own property and the
 * value becomes its prototype. Read naively (Object.entries) the header is gone, silently; kafkajs
 * keeps it. Here it comes back from the prototype, in its place among the others.
 */
export function headerPairsOf(headers: ReadonlyArray<object> | undefined): Array<[string, unknown]> {
  return (headers ?? []).flatMap((h): Array<[string, unknown]> => {
    const own = Object.entries(h);
    if (own.length > 0) return own;
    const proto: unknown = Object.getPrototypeOf(h);
    return Buffer.isBuffer(proto) ? [['__proto__', proto]] : [];
  });
}
