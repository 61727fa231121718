/**
 * A strict JSON parser (the grammar JSON.parse accepts) that keeps each number's source text.
 *
 * Lambda's filter rules compare numbers "using string representation: 300, 300.0, and 3.0e2 are
 * not considered equal" ("Control which events Lambda sends to your function", Filter rule
 * syntax). JSON.parse forgets how a number was written, so record values are parsed here.
 * Objects become Maps, so a field named `__proto__` is an ordinary field.
 */
export class JsonNumber {
  constructor(
    readonly value: number,
    readonly text: string,
  ) {}
}

export type JsonScalar = string | boolean | null | JsonNumber;
export type JsonObject = Map<string, JsonValue>;
export type JsonValue = JsonScalar | JsonValue[] | JsonObject;

/**
 * Valid JSON nested deeper than the parser's bound: the filter matchers walk values recursively,
 * so such a value is refused here (the record's FilterFailed) instead of overflowing their stack.
 */
export class JsonTooDeep extends Error {
  override readonly name = 'JsonTooDeep';
}

/** The parsed value, or undefined when `text` is not valid JSON; throws JsonTooDeep past `maxDepth` levels of nesting. */
export function parseJson(text: string, maxDepth = Infinity): JsonValue | undefined {
  const parser = new Parser(text, maxDepth);
  try {
    const value = parser.value();
    parser.skipSpace();
    return parser.atEnd() ? value : undefined;
  } catch (e) {
    if (e instanceof JsonTooDeep) throw e;
    // Malformed input, or nesting deep enough to exhaust the stack: not JSON.
    return undefined;
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

class Malformed extends Error {}

class Parser {
  private i = 0;
  private depth = 0;
  constructor(
    private readonly s: string,
    private readonly maxDepth: number,
  ) {}

  private enter(): void {
    if (++this.depth > this.maxDepth) throw new JsonTooDeep(`the value nests deeper than ${this.maxDepth} levels (the bound maxFilterJsonDepth)`);
  }

  atEnd(): boolean {
    return this.i === this.s.length;
  }

  skipSpace(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.i++;
    }
  }

  value(): JsonValue {
    this.skipSpace();
    const c = this.s[this.i];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === 't') return this.literal('true', true);
    if (c === 'f') return this.literal('false', false);
    if (c === 'n') return this.literal('null', null);
    return this.number();
  }

  private object(): JsonObject {
    const out: JsonObject = new Map();
    this.enter();
    this.i++;
    this.skipSpace();
    if (this.s[this.i] === '}') {
      this.i++;
      this.depth--;
      return out;
    }
    for (;;) {
      this.skipSpace();
      if (this.s[this.i] !== '"') throw new Malformed();
      const key = this.string();
      this.skipSpace();
      if (this.s[this.i++] !== ':') throw new Malformed();
      out.set(key, this.value());
      this.skipSpace();
      const c = this.s[this.i++];
      if (c === '}') {
        this.depth--;
        return out;
      }
      if (c !== ',') throw new Malformed();
    }
  }

  private array(): JsonValue[] {
    const out: JsonValue[] = [];
    this.enter();
    this.i++;
    this.skipSpace();
    if (this.s[this.i] === ']') {
      this.i++;
      this.depth--;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.skipSpace();
      const c = this.s[this.i++];
      if (c === ']') {
        this.depth--;
        return out;
      }
      if (c !== ',') throw new Malformed();
    }
  }

  private string(): string {
    const s = this.s;
    let start = ++this.i;
    let out = '';
    for (;;) {
      if (this.i >= s.length) throw new Malformed();
      const c = s.charCodeAt(this.i);
      if (c === 0x22) {
        out += s.slice(start, this.i++);
        return out;
      }
      if (c < 0x20) throw new Malformed();
      if (c !== 0x5c) {
        this.i++;
        continue;
      }
      out += s.slice(start, this.i);
      const e = s[this.i + 1] ?? '';
      if (e === 'u') {
        const hex = s.slice(this.i + 2, this.i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new Malformed();
        out += String.fromCharCode(parseInt(hex, 16));
        this.i += 6;
      } else {
        const ch = ESCAPES[e];
        if (ch === undefined) throw new Malformed();
        out += ch;
        this.i += 2;
      }
      start = this.i;
    }
  }

  private literal<T>(word: string, value: T): T {
    if (!this.s.startsWith(word, this.i)) throw new Malformed();
    this.i += word.length;
    return value;
  }

  private number(): JsonNumber {
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(this.s);
    if (m === null) throw new Malformed();
    this.i += m[0].length;
    return new JsonNumber(Number(m[0]), m[0]);
  }
}
