import { describe, expect, it } from 'vitest';
import { parametersToGive } from './deploy-check.ts';

describe('the parameters a deploy must give', () => {
  const template = {
    Parameters: {
      SluiceImage: { Type: 'String', MinLength: 1 },
      SluiceSubnets: { Type: 'List<AWS::EC2::Subnet::Id>', Default: 'subnet-1' },
      SluiceSecurityGroups: { Type: 'List<AWS::EC2::SecurityGroup::Id>' },
      SluiceAssignPublicIp: { Type: 'String', Default: 'DISABLED' },
      Other: { Type: 'String' }, // the service's own: CloudFormation asks for it, not Sluice
    },
  };

  it("names the poller's parameters without a default that provider.stackParameters does not give", () => {
    expect(parametersToGive(template, undefined)).toEqual(['SluiceImage', 'SluiceSecurityGroups']);
    expect(parametersToGive(template, [{ ParameterKey: 'SluiceImage', ParameterValue: 'example/sluice:1' }])).toEqual(['SluiceSecurityGroups']);
    expect(parametersToGive(template, [{ ParameterKey: 'SluiceImage', ParameterValue: '' }, { ParameterKey: 'SluiceSecurityGroups', ParameterValue: 'sg-1' }])).toEqual(['SluiceImage']);
  });

  it('takes UsePreviousValue: true as given (an update keeps the stack\'s value), and an empty default as none (CloudFormation refuses it)', () => {
    expect(parametersToGive({ Parameters: { SluiceImage: { Type: 'String', MinLength: 1 } } }, [{ ParameterKey: 'SluiceImage', UsePreviousValue: true }])).toEqual([]);
    expect(parametersToGive({ Parameters: { SluiceImage: { Type: 'String', MinLength: 1, Default: '' } } }, undefined)).toEqual(['SluiceImage']);
    expect(parametersToGive({ Parameters: { SluiceSubnets: { Type: 'List<AWS::EC2::Subnet::Id>', Default: ' ' } } }, undefined)).toEqual(['SluiceSubnets']);
  });

  it('asks nothing of a template without the poller (no sluice trigger, or deploy.enabled: false)', () => {
    expect(parametersToGive({ Parameters: { Other: { Type: 'String' } } }, undefined)).toEqual([]);
    expect(parametersToGive({}, undefined)).toEqual([]);
  });
});
