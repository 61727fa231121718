import { describe, expect, it } from 'vitest';
import { namesLocalRegistry } from './local-registry.ts';

describe('namesLocalRegistry', () => {
  it('is the local registry on its port, by localhost or the loopback address', () => {
    expect(namesLocalRegistry('http://localhost:28081/apis/ccompat/v7', 28081)).toBe(true);
    expect(namesLocalRegistry('http://127.0.0.1:28081', 28081)).toBe(true);
  });
  it('is not another port, another host, https, or a Glue ARN', () => {
    expect(namesLocalRegistry('http://localhost:8081', 28081)).toBe(false);
    expect(namesLocalRegistry('http://registry.internal:28081', 28081)).toBe(false);
    expect(namesLocalRegistry('https://localhost:28081', 28081)).toBe(false);
    expect(namesLocalRegistry('arn:aws:glue:eu-west-1:123456789012:registry/orders', 28081)).toBe(false);
  });
});
