import { describe, expect, it } from 'vitest';
import { bundlePath, checkSameReading, parseLambdaHandler } from './lambda-handler.ts';

describe("a handler read as Lambda's Node.js runtime reads it", () => {
  it('splits the directory, the file up to its first dot, and the export path', () => {
    expect(parseLambdaHandler('orders', 'functions/orders.handler')).toEqual({ moduleRoot: 'functions', moduleName: 'orders', handlerName: 'handler' });
    expect(parseLambdaHandler('api', 'index.api.get')).toEqual({ moduleRoot: '', moduleName: 'index', handlerName: 'api.get' });
    expect(parseLambdaHandler('deep', 'src/a/b/main.run')).toEqual({ moduleRoot: 'src/a/b', moduleName: 'main', handlerName: 'run' });
  });

  it('puts the bundle where the runtime looks', () => {
    expect(bundlePath(parseLambdaHandler('orders', 'functions/orders.handler'), '.mjs')).toBe('functions/orders.mjs');
    expect(bundlePath(parseLambdaHandler('root', 'index.handler'), '.cjs')).toBe('index.cjs');
  });

  it('refuses what the runtime refuses or cannot find, naming the function and the form', () => {
    expect(() => parseLambdaHandler('orders', 'functions/orders')).toThrow(/functions\.orders\.handler: "functions\/orders" is not of the form <file>\.<export>/);
    expect(() => parseLambdaHandler('orders', '../shared/orders.handler')).toThrow(/"\.\." in it/);
    expect(() => parseLambdaHandler('orders', 'functions\\orders.handler')).toThrow(/'\/' separators/);
    expect(() => parseLambdaHandler('orders', 'functions/.handler')).toThrow(/<file>\.<export>/);
  });

  it('refuses a file name with a dot, which the framework and Lambda would read as different files', () => {
    const handler = 'functions/orders.v2.handler';
    expect(() => checkSameReading('orders', handler, parseLambdaHandler('orders', handler))).toThrow(
      /names the file functions\/orders\.v2 here, but Lambda's Node\.js runtime reads it as file functions\/orders with the export "v2\.handler".*functions\/orders-v2/,
    );
    expect(() => checkSameReading('orders', 'functions/orders.handler', parseLambdaHandler('orders', 'functions/orders.handler'))).not.toThrow();
  });
});
