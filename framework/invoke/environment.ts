/**
 * Pure: the environment a handler sees, as on Lambda: the process's variables without the
 * poller's own (every `SLUICE_*`: `SLUICE_SECRET_<NAME>` Kafka credentials, `SLUICE_TRIGGERS`,
 * the log settings), then the function's `environment`, then Lambda's reserved variables.
 */
export interface LambdaIdentity {
  lambdaName: string;
  memorySizeMb: number;
  region: string;
  /** Lambda's LAMBDA_TASK_ROOT: where the code is. */
  taskRoot: string;
  handler: string;
}

const POLLER_ONLY = /^SLUICE_/;

export function handlerEnvironment(processEnv: NodeJS.ProcessEnv, functionEnv: Record<string, string>, id: LambdaIdentity): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(processEnv)) if (value !== undefined && !POLLER_ONLY.test(name)) env[name] = value;
  return {
    ...env,
    ...functionEnv,
    AWS_REGION: id.region,
    AWS_DEFAULT_REGION: id.region,
    AWS_LAMBDA_FUNCTION_NAME: id.lambdaName,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(id.memorySizeMb),
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${id.lambdaName}`,
    LAMBDA_TASK_ROOT: id.taskRoot,
    _HANDLER: id.handler,
  };
}
