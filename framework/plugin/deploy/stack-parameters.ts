/**
 * Pure: the poller's stack parameters that have no default in the template and that
 * `provider.stackParameters` does not give, so a deploy would fail asking for them. `package`
 * warns about them (it printed only "Service packaged", and a failed deploy was the first sign);
 * `deploy` refuses before CloudFormation is asked (./deploy-check.ts).
 */
import type { DeploySettings } from './settings.ts';
import { IDS } from './template.ts';

/** Each parameter's setting under custom.sluice.deploy and a value to show. */
const NEEDED = [
  { name: IDS.image, setting: 'image', what: "the poller's image", example: '123456789012.dkr.ecr.eu-west-1.amazonaws.com/sluice:1.0' },
  { name: IDS.subnets, setting: 'subnets', what: "the poller's subnets", example: 'subnet-0abc1234,subnet-0def5678' },
  { name: IDS.securityGroups, setting: 'securityGroups', what: "the poller's security groups", example: 'sg-0abc1234' },
] as const;

/** The poller's parameters a deploy must give a value when the template has no default. */
export const PARAMETERS_TO_GIVE: readonly string[] = NEEDED.map((n) => n.name);

type Given = Pick<DeploySettings, 'image' | 'subnets' | 'securityGroups'>;

type StackParameter = { ParameterKey?: unknown; ParameterValue?: unknown; UsePreviousValue?: unknown };

function entryOf(stackParameters: unknown, name: string): StackParameter | undefined {
  if (!Array.isArray(stackParameters)) return undefined;
  return stackParameters.find((p) => (p as StackParameter | null)?.ParameterKey === name) as StackParameter | undefined;
}

/** The value provider.stackParameters gives a parameter, if it gives one. */
export function stackParameterValue(stackParameters: unknown, name: string): string | undefined {
  const p = entryOf(stackParameters, name);
  return typeof p?.ParameterValue === 'string' && p.ParameterValue.trim() !== '' ? p.ParameterValue.trim() : undefined;
}

/** A value, or UsePreviousValue: true (an update keeps the stack's value). */
export function stackParameterGiven(stackParameters: unknown, name: string): boolean {
  return stackParameterValue(stackParameters, name) !== undefined || entryOf(stackParameters, name)?.UsePreviousValue === true;
}

/** The Sluice parameters provider.stackParameters names at all. */
export function namedInStackParameters(stackParameters: unknown): string[] {
  return NEEDED.map((n) => n.name).filter((name) => entryOf(stackParameters, name) !== undefined);
}

export function parametersWithoutValue(settings: Given, stackParameters: unknown, resourceParameters?: unknown): string[] {
  const given = new Set<string>(NEEDED.map((n) => n.name).filter((name) => stackParameterGiven(stackParameters, name)));
  // A default of the service's own (resources.Parameters, merged into the template after this hook) gives it too.
  if (resourceParameters && typeof resourceParameters === 'object') {
    for (const [name, p] of Object.entries(resourceParameters)) if (hasDefault(p)) given.add(name);
  }
  return NEEDED.filter((n) => settings[n.setting] === undefined && !given.has(n.name)).map((n) => n.name);
}

/** A parameter declaration with a default CloudFormation takes: an empty one is refused by MinLength 1 or as a list of none. */
export function hasDefault(p: unknown): boolean {
  if (!p || typeof p !== 'object' || !('Default' in p)) return false;
  const d = (p as { Default: unknown }).Default;
  return !(typeof d === 'string' && d.trim() === '');
}

/** What names them, with both ways to give them; `when` is "at deploy" for package's warning. */
function needs(missing: readonly string[]): string {
  const ns = NEEDED.filter((n) => missing.includes(n.name));
  const them = ns.length > 1 ? 'them' : 'it';
  return (
    `${ns.map((n) => `${n.name} (${n.what})`).join(', ')}, and nothing gives ${them}: set ` +
    `${ns.map((n) => `custom.sluice.deploy.${n.setting}`).join(', ')}, or give ${them} in provider.stackParameters ` +
    `(${ns.map((n) => `- ParameterKey: ${n.name}, ParameterValue: "${n.example}"`).join('; ')})`
  );
}

/** The warning `package` prints for them. */
export function parametersWarning(missing: readonly string[]): string {
  return `Sluice: the template needs ${needs(missing)}. Packaging is done; a deploy without ${missing.length > 1 ? 'them' : 'it'} is refused.`;
}

/** The error `deploy` stops with, before CloudFormation is asked. */
export function parametersRefusal(missing: readonly string[], packagedBefore = false): string {
  const again = packagedBefore ? ' This deploy uses a package made before (--package or package.path), whose template is fixed: set it, then package again.' : '';
  return `Sluice: this deploy needs ${needs(missing)}.${again} Nothing was deployed.`;
}
