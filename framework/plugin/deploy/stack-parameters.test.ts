import { describe, expect, it } from 'vitest';
import { parametersRefusal, parametersWarning, parametersWithoutValue, stackParameterValue } from './stack-parameters.ts';

const none = { image: undefined, subnets: undefined, securityGroups: undefined };

describe('the poller stack parameters a deploy would ask for', () => {
  it('names those without a default that provider.stackParameters does not give', () => {
    expect(parametersWithoutValue(none, undefined)).toEqual(['SluiceImage', 'SluiceSubnets', 'SluiceSecurityGroups']);
    expect(parametersWithoutValue({ ...none, image: 'example/sluice:1', subnets: ['subnet-1'] }, [{ ParameterKey: 'Other', ParameterValue: 'x' }])).toEqual(['SluiceSecurityGroups']);
    expect(
      parametersWithoutValue(none, [
        { ParameterKey: 'SluiceImage', ParameterValue: 'example/sluice:1' },
        { ParameterKey: 'SluiceSubnets', ParameterValue: 's' },
        { ParameterKey: 'SluiceSecurityGroups', ParameterValue: 'g' },
      ]),
    ).toEqual([]);
    // An empty value gives nothing: CloudFormation refuses it (MinLength 1, a list of none).
    expect(parametersWithoutValue({ ...none, subnets: ['s'], securityGroups: ['g'] }, [{ ParameterKey: 'SluiceImage', ParameterValue: ' ' }])).toEqual(['SluiceImage']);
    // A default the service gives in resources.Parameters (a review found it warned anyway).
    expect(parametersWithoutValue({ ...none, image: 'i' }, undefined, { SluiceSubnets: { Type: 'String', Default: 'subnet-1' }, SluiceSecurityGroups: { Type: 'String' } })).toEqual(['SluiceSecurityGroups']);
  });

  it('reads a value provider.stackParameters gives', () => {
    expect(stackParameterValue([{ ParameterKey: 'SluiceImage', ParameterValue: ' example/sluice:1 ' }], 'SluiceImage')).toBe('example/sluice:1');
    expect(stackParameterValue([{ ParameterKey: 'SluiceImage' }], 'SluiceImage')).toBeUndefined();
    expect(stackParameterValue({ SluiceImage: 'x' }, 'SluiceImage')).toBeUndefined();
  });

  it('says how to give them, both ways, at package (a warning) and at deploy (a refusal)', () => {
    const text = parametersWarning(['SluiceImage', 'SluiceSecurityGroups']);
    expect(text).toContain("SluiceImage (the poller's image), SluiceSecurityGroups (the poller's security groups), and nothing gives them");
    expect(text).toContain('set custom.sluice.deploy.image, custom.sluice.deploy.securityGroups');
    expect(text).toContain('- ParameterKey: SluiceImage, ParameterValue: "123456789012.dkr.ecr.eu-west-1.amazonaws.com/sluice:1.0"');
    expect(text).toContain('a deploy without them is refused');
    expect(parametersRefusal(['SluiceImage'])).toBe(
      "Sluice: this deploy needs SluiceImage (the poller's image), and nothing gives it: set custom.sluice.deploy.image, or give it in provider.stackParameters " +
        '(- ParameterKey: SluiceImage, ParameterValue: "123456789012.dkr.ecr.eu-west-1.amazonaws.com/sluice:1.0"). Nothing was deployed.',
    );
  });
});
