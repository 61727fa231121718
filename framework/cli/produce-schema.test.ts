import { describe, expect, it } from 'vitest';
import { maybeFramed, shownUrl } from './produce-schema.ts';

describe('produce --subject', () => {
  it('never shows the user and password a registry URL carries', () => {
    expect(shownUrl('http://alice:s3cret@127.0.0.1:28081/apis/ccompat/v7')).toBe('http://127.0.0.1:28081/apis/ccompat/v7');
    expect(shownUrl('https://registry.example.com/')).toBe('https://registry.example.com/');
  });

  it('leaves records as they are without --subject, and refuses --registry or --message without it', async () => {
    const records = [{ value: '{"a":1}' }];
    expect(await maybeFramed(records, {}, () => undefined)).toBe(records);
    await expect(maybeFramed(records, { registry: 'http://r' }, () => undefined)).rejects.toThrow('--registry goes with --subject');
    await expect(maybeFramed(records, { message: 'M' }, () => undefined)).rejects.toThrow('--message goes with --subject');
  });
});
