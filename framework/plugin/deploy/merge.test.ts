import { describe, expect, it } from 'vitest';
import type { CloudFormationTemplate } from '../serverless-api.ts';
import { mergeFragment } from './merge.ts';

const fragment = () => ({ Parameters: { P: { Type: 'String' } }, Resources: { R: { Type: 'AWS::ECS::Cluster' } }, Outputs: { O: { Value: 'x' } } });

describe('mergeFragment', () => {
  it('adds every section, creating the ones the template lacks', () => {
    const template: CloudFormationTemplate = { Resources: { Fn: { Type: 'AWS::Lambda::Function' } } };
    mergeFragment(template, fragment());
    expect(template).toEqual({ Parameters: { P: { Type: 'String' } }, Resources: { Fn: { Type: 'AWS::Lambda::Function' }, R: { Type: 'AWS::ECS::Cluster' } }, Outputs: { O: { Value: 'x' } } });
  });

  it('replaces nothing: a name already taken fails, naming it, and the template is left as it was', () => {
    const template: CloudFormationTemplate = { Resources: { R: { Type: 'Mine' } }, Outputs: { O: { Value: 'mine' } } };
    expect(() => mergeFragment(template, fragment())).toThrow('The template already has Resources.R, Outputs.O, which Sluice adds');
    expect(template).toEqual({ Resources: { R: { Type: 'Mine' } }, Outputs: { O: { Value: 'mine' } } });
  });
});
