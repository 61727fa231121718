/**
 * Pure: the poller's stack parameters that have no default in the template and that
 * `provider.stackParameters` does not give, so a deploy would fail asking for them. `package`
 * printed only "Service packaged", and a failed deploy was the first sign.
 */
import type { DeploySettings } from './settings.ts';
import { IDS } from './template.ts';

export function parametersWithoutValue(settings: Pick<DeploySettings, 'subnets' | 'securityGroups'>, stackParameters: unknown, resourceParameters?: unknown): string[] {
  const given = new Set(Array.isArray(stackParameters) ? stackParameters.map((p) => (p as { ParameterKey?: unknown } | null)?.ParameterKey).filter((k): k is string => typeof k === 'string') : []);
  // A default of the service's own (resources.Parameters, merged into the template after this hook) gives it too.
  if (resourceParameters && typeof resourceParameters === 'object') {
    for (const [name, p] of Object.entries(resourceParameters)) if (p && typeof p === 'object' && 'Default' in p) given.add(name);
  }
  const needed = [...(settings.subnets ? [] : [IDS.subnets]), ...(settings.securityGroups ? [] : [IDS.securityGroups])];
  return needed.filter((name) => !given.has(name));
}

/** The warning `package` prints for them, with both ways to give them. */
export function parametersWarning(missing: readonly string[]): string {
  const settingOf: Record<string, string> = { [IDS.subnets]: 'subnets', [IDS.securityGroups]: 'securityGroups' };
  return (
    `Sluice: the template needs ${missing.join(' and ')} at deploy (the poller's ${missing.map((m) => settingOf[m]).join(' and ')}), and nothing gives ${missing.length > 1 ? 'them' : 'it'}: ` +
    `set ${missing.map((m) => `custom.sluice.deploy.${settingOf[m]}`).join(' and ')} (e.g. [subnet-0abc1234] / [sg-0abc1234]), or give ` +
    `${missing.length > 1 ? 'them' : 'it'} in provider.stackParameters (- ParameterKey: ${missing[0]}, ParameterValue: "subnet-0abc1234,subnet-0def5678"); a deploy without ${missing.length > 1 ? 'them' : 'it'} fails.`
  );
}
