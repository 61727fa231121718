/**
 * Pure: JSON text that SQS and SNS take whatever a record carried. SQS refuses a message body with
 * a character outside XML 1.0's set (#x9 | #xA | #xD | #x20–#xD7FF | #xE000–#xFFFD |
 * #x10000–#x10FFFF; a lone surrogate is none of them), and SNS delivers to SQS. JSON.stringify
 * escapes control characters and lone surrogates but leaves U+FFFE and U+FFFF raw, so a header name
 * or an error text quoting one made every send of that record fail, and its partition wait for ever.
 */

/** Any code point outside XML 1.0's character set (with `u`, a lone surrogate is one code point). */
const OUTSIDE_MESSAGE_CHARS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * `json` with every character SQS refuses written as a `\uXXXX` escape: the same JSON value once
 * parsed. Such a character can only stand inside a JSON string (JSON's own syntax is ASCII), and
 * every one is in the Basic Multilingual Plane, so four hex digits name it.
 */
export function messageSafeJson(json: string): string {
  return json.replace(OUTSIDE_MESSAGE_CHARS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
