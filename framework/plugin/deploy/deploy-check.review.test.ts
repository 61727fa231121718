// Review of 038cdcc: each `it` states the behaviour a correct change would have; all fail today.
import { describe, expect, it } from 'vitest';
import { parametersToGive } from './deploy-check.ts';
import { ecrRepositoryArn, executionRole } from './iam.ts';

const noDefault = { Parameters: { SluiceImage: { Type: 'String', MinLength: 1 } } };

describe('review: deploy check', () => {
  it('accepts UsePreviousValue: true (a valid osls stackParameters entry, kept on an update)', () => {
    expect(parametersToGive(noDefault, [{ ParameterKey: 'SluiceImage', UsePreviousValue: true }])).toEqual([]);
  });
  it("refuses an empty Default (resources.Parameters.SluiceImage.Default: ${env:X, ''}) that MinLength 1 rejects", () => {
    expect(parametersToGive({ Parameters: { SluiceImage: { Type: 'String', MinLength: 1, Default: '' } } }, undefined)).toEqual(['SluiceImage']);
  });
});

describe('review: ECR pull rights', () => {
  it('recognises an ECR dual-stack registry host (<account>.dkr-ecr.<region>.on.aws)', () => {
    expect(ecrRepositoryArn('123456789012.dkr-ecr.us-east-1.on.aws/sluice:1.0')).toEqual({ 'Fn::Sub': 'arn:${AWS::Partition}:ecr:us-east-1:123456789012:repository/sluice' });
  });
  it('grants a dual-stack ECR image some pull right (today: none, unlike an unknown image)', () => {
    const stmts = JSON.stringify(executionRole('123456789012.dkr-ecr.us-east-1.on.aws/sluice:1.0', 'SluiceLogGroup'));
    expect(stmts).toContain('ecr:BatchGetImage');
  });
});
