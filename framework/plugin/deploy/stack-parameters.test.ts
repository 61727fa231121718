import { describe, expect, it } from 'vitest';
import { parametersWarning, parametersWithoutValue } from './stack-parameters.ts';

describe('the poller stack parameters a deploy would ask for', () => {
  it('names those without a default that provider.stackParameters does not give', () => {
    expect(parametersWithoutValue({ subnets: undefined, securityGroups: undefined }, undefined)).toEqual(['SluiceSubnets', 'SluiceSecurityGroups']);
    expect(parametersWithoutValue({ subnets: ['subnet-1'], securityGroups: undefined }, [{ ParameterKey: 'Other', ParameterValue: 'x' }])).toEqual(['SluiceSecurityGroups']);
    expect(parametersWithoutValue({ subnets: undefined, securityGroups: undefined }, [{ ParameterKey: 'SluiceSubnets', ParameterValue: 's' }, { ParameterKey: 'SluiceSecurityGroups', ParameterValue: 'g' }])).toEqual([]);
    // A default the service gives in resources.Parameters (a review found it warned anyway).
    expect(parametersWithoutValue({ subnets: undefined, securityGroups: undefined }, undefined, { SluiceSubnets: { Type: 'String', Default: 'subnet-1' }, SluiceSecurityGroups: { Type: 'String' } })).toEqual(['SluiceSecurityGroups']);
  });

  it('says how to give them, both ways', () => {
    const text = parametersWarning(['SluiceSubnets', 'SluiceSecurityGroups']);
    expect(text).toContain('set custom.sluice.deploy.subnets and custom.sluice.deploy.securityGroups');
    expect(text).toContain('provider.stackParameters');
    expect(text).toContain('a deploy without them fails');
  });
});
