import { describe, expect, it } from 'vitest';
import { planBuild, pluginNames, type FunctionView, type ServiceView } from './plan.ts';
import { buildSettings } from './settings.ts';

const node = (handler: string, more: Partial<FunctionView> = {}): FunctionView => ({ handler, runtime: 'nodejs22.x', ...more });
const service = (functions: Record<string, FunctionView>, more: Partial<ServiceView> = {}): ServiceView => ({ service: 'shop', plugins: ['serverless-sluice'], package: {}, functions, ...more });
const defaults = buildSettings(undefined);

describe('planBuild', () => {
  it('bundles every Node.js function into one <service>.zip, each at its handler path as .mjs, the AWS SDK left to the runtime', () => {
    const plan = planBuild(service({ orders: node('functions/orders.handler'), payments: node('functions/payments.handler') }), defaults);
    expect(plan).toMatchObject({
      kind: 'bundle',
      jobs: [
        { functionName: 'orders', outputPath: 'functions/orders.mjs', nodeMajor: 22, external: ['@aws-sdk/*'] },
        { functionName: 'payments', outputPath: 'functions/payments.mjs', nodeMajor: 22, external: ['@aws-sdk/*'] },
      ],
      artifacts: [{ file: 'shop.zip', scope: 'service', functions: ['orders', 'payments'], jobs: [0, 1] }],
      skipped: [],
    });
  });

  it('gives each function its own <function>.zip with package.individually, on the service or the function', () => {
    const all = planBuild(service({ orders: node('functions/orders.handler'), payments: node('functions/payments.handler') }, { package: { individually: true } }), defaults);
    expect(all.kind === 'bundle' && all.artifacts.map((a) => [a.file, a.scope, a.functions])).toEqual([
      ['orders.zip', 'function', ['orders']],
      ['payments.zip', 'function', ['payments']],
    ]);
    const one = planBuild(service({ orders: node('functions/orders.handler', { package: { individually: true } }), payments: node('functions/payments.handler') }), defaults);
    expect(one.kind === 'bundle' && one.artifacts.map((a) => [a.file, a.scope, a.functions])).toEqual([
      ['shop.zip', 'service', ['payments']],
      ['orders.zip', 'function', ['orders']],
    ]);
  });

  it('bundles a handler file once for the functions that share it', () => {
    const plan = planBuild(service({ orders: node('functions/orders.handler'), audit: node('functions/orders.audit') }), defaults);
    expect(plan.kind === 'bundle' && [plan.jobs.length, plan.artifacts]).toEqual([1, [{ file: 'shop.zip', scope: 'service', functions: ['orders', 'audit'], jobs: [0] }]]);
  });

  it('gives one file needed for two Node.js majors a zip per function', () => {
    const plan = planBuild(service({ orders: node('functions/orders.handler'), old: node('functions/orders.handler', { runtime: 'nodejs16.x' }) }), defaults);
    expect(plan.kind === 'bundle' && plan.jobs.map((j) => [j.nodeMajor, j.external])).toEqual([[22, ['@aws-sdk/*']], [16, []]]);
    expect(plan.kind === 'bundle' && plan.artifacts.map((a) => a.file)).toEqual(['orders.zip', 'old.zip']);
  });

  it("leaves to the framework what is not Node.js, an image, disabled, excluded or prebuilt; then the others get a zip each, so the framework's <service>.zip stays the others'", () => {
    const plan = planBuild(
      service({
        orders: node('functions/orders.handler'),
        py: { handler: 'app.handler', runtime: 'python3.12' },
        img: { image: 'repo:1', runtime: 'nodejs22.x' },
        off: node('functions/off.handler', { package: { disable: true } }),
        legacy: node('functions/legacy.handler'),
        prebuilt: node('functions/pre.handler', { package: { artifact: 'build/pre.zip' } }),
      }),
      buildSettings({ exclude: ['legacy'] }),
    );
    expect(plan).toMatchObject({
      kind: 'bundle',
      artifacts: [{ file: 'orders.zip', scope: 'function', functions: ['orders'] }],
      skipped: [
        { functionName: 'py', why: 'runtime python3.12, not Node.js' },
        { functionName: 'legacy', why: 'custom.sluice.build.exclude' },
        { functionName: 'prebuilt', why: 'its own package.artifact (build/pre.zip)' },
      ],
    });
  });

  it('steps aside, saying why, for a bundler plugin, a service artifact, or build.enabled: false', () => {
    const fns = { orders: node('functions/orders.handler') };
    expect(planBuild(service(fns, { plugins: ['serverless-esbuild', 'serverless-sluice'] }), defaults)).toEqual({ kind: 'aside', reason: expect.stringMatching(/^serverless-esbuild builds this service's functions/) });
    expect(planBuild(service(fns, { plugins: ['serverless-webpack'] }), defaults)).toMatchObject({ kind: 'aside' });
    expect(planBuild(service(fns, { plugins: ['serverless-plugin-typescript'] }), defaults)).toMatchObject({ kind: 'aside' });
    expect(planBuild(service(fns, { package: { artifact: 'dist/app.zip' } }), defaults)).toEqual({ kind: 'aside', reason: expect.stringMatching(/^package\.artifact is set \(dist\/app\.zip\)/) });
    expect(planBuild(service(fns), buildSettings({ enabled: false }))).toMatchObject({ kind: 'aside', reason: expect.stringMatching(/enabled is false/) });
  });

  it('adds the external modules and writes .cjs with format: cjs', () => {
    const plan = planBuild(service({ orders: node('functions/orders.handler') }), buildSettings({ format: 'cjs', external: ['sharp'] }));
    expect(plan.kind === 'bundle' && plan.jobs.map((j) => [j.outputPath, j.external])).toEqual([['functions/orders.cjs', ['@aws-sdk/*', 'sharp']]]);
  });

  it('refuses an exclude that names no function, and a handler Lambda would read as another file', () => {
    expect(() => planBuild(service({ orders: node('functions/orders.handler') }), buildSettings({ exclude: ['order'] }))).toThrow(
      'custom.sluice.build.exclude names "order", which is not a function of this service; list keys under functions: (orders).',
    );
    expect(() => planBuild(service({ orders: node('functions/orders.v2.handler') }), defaults)).toThrow(/reads it as file functions\/orders with the export "v2\.handler"/);
  });
});

describe('buildSettings', () => {
  it('applies the defaults', () => {
    expect(buildSettings(undefined)).toEqual({ enabled: true, minify: false, sourcemap: true, format: 'esm', external: [], exclude: [] });
  });

  it('refuses what the schema does not allow, naming the path and the fix', () => {
    expect(() => buildSettings({ minfy: true })).toThrow(/custom\.sluice\.build/);
    expect(() => buildSettings({ format: 'iife' })).toThrow(/format is esm or cjs/);
  });
});

describe('pluginNames', () => {
  it('reads both forms of plugins:', () => {
    expect(pluginNames(['a', 'b'])).toEqual(['a', 'b']);
    expect(pluginNames({ localPath: './x', modules: ['c'] })).toEqual(['c']);
    expect(pluginNames(undefined)).toEqual([]);
  });
});
