/**
 * Pure: adds a template fragment to the compiled template, refusing to replace anything that
 * is already there (a user resource or output of the same name must be renamed, not lost).
 */
import type { CloudFormationTemplate } from '../serverless-api.ts';
import type { TemplateFragment } from './template.ts';

export function mergeFragment(template: CloudFormationTemplate, fragment: TemplateFragment): void {
  const sections = ['Parameters', 'Resources', 'Outputs'] as const;
  const clashes = sections.flatMap((section) =>
    Object.keys(fragment[section]).filter((id) => Object.hasOwn(template[section] ?? {}, id)).map((id) => `${section}.${id}`),
  );
  if (clashes.length > 0) {
    throw new Error(
      `The template already has ${clashes.join(', ')}, which Sluice adds to run the poller. ` +
        'Rename yours, or set custom.sluice.deploy.enabled: false to deploy the poller yourself.',
    );
  }
  for (const section of sections) template[section] = { ...template[section], ...fragment[section] };
}
