import { describe, expect, it } from 'vitest';
import { FARGATE_SIZES } from './schema.ts';
import { deploySettings } from './settings.ts';
import { configErrorMessage } from '../../config/testing.ts';

const IMAGE = '123456789012.dkr.ecr.eu-west-1.amazonaws.com/sluice:1.0';

const errorOf = (raw: unknown): string => configErrorMessage(() => deploySettings(raw));

describe('deploySettings', () => {
  it('applies the defaults: 0.25 vCPU, 512 MiB, x86_64, one task, 14 days of logs, no public IP', () => {
    expect(deploySettings({ image: IMAGE })).toEqual({
      image: IMAGE,
      cpu: 256,
      memory: 512,
      architecture: 'x86_64',
      desiredCount: 1,
      logRetentionInDays: 14,
      cluster: undefined,
      subnets: undefined,
      securityGroups: undefined,
      assignPublicIp: false,
    });
  });

  it('keeps what is set, coercing strings from ${env:…} as the framework does, without mutating the input', () => {
    const raw = { image: IMAGE, cpu: '1024', memory: '4096', desiredCount: '3', architecture: 'arm64', cluster: 'shared', subnets: ['subnet-0a1b2c3d', 'subnet-0123456789abcdef0'], securityGroups: ['sg-0e3f4a5b'], assignPublicIp: 'true', logRetentionInDays: 30 };
    const before = structuredClone(raw);
    expect(deploySettings(raw)).toMatchObject({ cpu: 1024, memory: 4096, desiredCount: 3, architecture: 'arm64', cluster: 'shared', subnets: ['subnet-0a1b2c3d', 'subnet-0123456789abcdef0'], securityGroups: ['sg-0e3f4a5b'], assignPublicIp: true, logRetentionInDays: 30 });
    expect(raw).toEqual(before);
  });

  it('leaves the image to the SluiceImage stack parameter when it is not set, and refuses one of blanks', () => {
    expect(deploySettings(undefined)?.image).toBeUndefined();
    expect(deploySettings({ image: ` ${IMAGE} ` })?.image).toBe(IMAGE);
    expect(errorOf({ image: '  ' })).toContain("custom.sluice.deploy.image is empty: name the poller's image");
  });

  it('returns undefined when the poller service is turned off, with or without an image', () => {
    expect(deploySettings({ enabled: false })).toBeUndefined();
  });

  it('refuses a memory size Fargate does not run with the cpu, listing the allowed ones', () => {
    expect(errorOf({ image: IMAGE, cpu: 256, memory: 4096 })).toContain('memory 4096 MiB is not a size Fargate runs with cpu 256. With cpu 256, memory is one of 512, 1024, 2048');
    expect(errorOf({ image: IMAGE, cpu: 1024 })).toContain('memory 512 MiB is not a size Fargate runs with cpu 1024');
  });

  it("accepts every size in Fargate's table and nothing between", () => {
    for (const [cpu, sizes] of Object.entries(FARGATE_SIZES)) {
      for (const memory of sizes) expect(deploySettings({ image: IMAGE, cpu: Number(cpu), memory })?.memory).toBe(memory);
    }
    expect(FARGATE_SIZES[256]).not.toContain(1536);
    expect(FARGATE_SIZES[16384]).toEqual([32768, 40960, 49152, 57344, 65536, 73728, 81920, 90112, 98304, 106496, 114688, 122880]);
  });

  it('reports schema problems with the path and the fix, all at once', () => {
    const message = errorOf({ image: IMAGE, cpu: 300, desiredCount: -1, subnets: ['subnet-0a1b'], imge: 'x' });
    expect(message).toContain('4 problems');
    expect(message).toContain('custom.sluice.deploy.cpu: must be one of 256, 512, 1024');
    expect(message).toContain('custom.sluice.deploy.desiredCount: must be at least 0');
    expect(message).toContain('custom.sluice.deploy.subnets[0]: must match ^subnet-([0-9a-f]{8}|[0-9a-f]{17})$ (got "subnet-0a1b"). Each subnet is a subnet id');
    expect(message).toContain('custom.sluice.deploy: unknown property "imge". Did you mean "image"?');
  });
});
