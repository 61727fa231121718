import { describe, expect, it } from 'vitest';
import { handlerEnvironment } from './environment.ts';

const id = { lambdaName: 'shop-dev-orders', memorySizeMb: 512, region: 'eu-west-1', taskRoot: '/srv/shop', handler: 'functions/orders.handler' };

describe('handlerEnvironment', () => {
  it("leaves out every SLUICE_ variable (the poller's secrets and settings), keeps the rest", () => {
    const env = handlerEnvironment({ PATH: '/bin', SLUICE_SECRET_KAFKA: 'pw', SLUICE_SECRETS: 'secretsmanager', SLUICE_TRIGGERS: '[]', SLUICE_LOG_LEVEL: 'debug', HOME: '/root' }, {}, id);
    expect(Object.keys(env).filter((k) => k.startsWith('SLUICE_'))).toEqual([]);
    expect(env).toMatchObject({ PATH: '/bin', HOME: '/root' });
  });

  it("applies the function's environment over the process's, and Lambda's reserved variables over both", () => {
    const env = handlerEnvironment({ TABLE: 'from-shell', AWS_REGION: 'us-east-1' }, { TABLE: 'orders', SLUICE_MODE: 'mine', AWS_REGION: 'nope' }, id);
    expect(env).toMatchObject({
      TABLE: 'orders',
      SLUICE_MODE: 'mine',
      AWS_REGION: 'eu-west-1',
      AWS_DEFAULT_REGION: 'eu-west-1',
      AWS_LAMBDA_FUNCTION_NAME: 'shop-dev-orders',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '512',
      AWS_LAMBDA_LOG_GROUP_NAME: '/aws/lambda/shop-dev-orders',
      LAMBDA_TASK_ROOT: '/srv/shop',
      _HANDLER: 'functions/orders.handler',
    });
  });
});
