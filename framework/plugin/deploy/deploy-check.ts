/**
 * The `before:deploy:deploy` hook: by then the framework has packaged the service (or restored a
 * package, `deploy --package`) into `.serverless/`. A stack parameter of the poller's that the
 * template gives no default and provider.stackParameters no value (SluiceImage when package ran
 * without custom.sluice.deploy.image) would have CloudFormation refuse the stack after the upload:
 * the deploy stops here instead, saying what to set.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../errors.ts';
import { userError, type HookContext } from '../service.ts';
import { hasDefault, PARAMETERS_TO_GIVE, parametersRefusal, stackParameterGiven } from './stack-parameters.ts';

/** osls's name for the template it deploys (naming.getCompiledTemplateFileName()). */
const TEMPLATE = 'cloudformation-template-update-stack.json';

/** Pure: the poller's parameters in `template` that a deploy gives no value. */
export function parametersToGive(template: { Parameters?: Record<string, unknown> }, stackParameters: unknown): string[] {
  return PARAMETERS_TO_GIVE.filter((name) => {
    const p = template.Parameters?.[name];
    return p !== undefined && !hasDefault(p) && !stackParameterGiven(stackParameters, name);
  });
}

export async function checkDeployParameters(c: HookContext): Promise<void> {
  const { serverless } = c;
  if (serverless.service.provider.name !== 'aws') return;
  const file = join(serverless.serviceDir, '.serverless', TEMPLATE);
  if (!existsSync(file)) return; // osls says what is missing from the package
  try {
    const missing = parametersToGive(JSON.parse(readFileSync(file, 'utf8')) as { Parameters?: Record<string, unknown> }, (serverless.service.provider as { stackParameters?: unknown }).stackParameters);
    const packagedBefore = typeof c.options.package === 'string' || typeof serverless.service.package.path === 'string';
    if (missing.length > 0) throw new ConfigError(parametersRefusal(missing, packagedBefore));
  } catch (e) {
    throw userError(c, e);
  }
}
