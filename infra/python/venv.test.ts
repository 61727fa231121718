import { describe, expect, it } from 'vitest';
import { failedPackage, isCurrent, requirementsHash } from './venv.ts';

describe('the suite Python environment', () => {
  const pins = 'moto[server]==5.2.5\ncfn-lint==1.51.0\n';

  it('is reused only while it was built from exactly these pins', () => {
    const wanted = requirementsHash(pins);
    expect(isCurrent({ pythonExists: true, marker: `${wanted}\n`, wanted })).toBe(true);
    expect(isCurrent({ pythonExists: true, marker: requirementsHash('moto[server]==5.2.6\ncfn-lint==1.51.0\n'), wanted })).toBe(false);
    expect(isCurrent({ pythonExists: true, marker: undefined, wanted })).toBe(false);
    expect(isCurrent({ pythonExists: false, marker: wanted, wanted })).toBe(false);
  });

  it("names the package pip could not install", () => {
    expect(failedPackage('ERROR: Could not find a version that satisfies the requirement cfn-lint==99.0 (from versions: 1.0)')).toBe(' (package cfn-lint==99.0)');
    expect(failedPackage('ERROR: No matching distribution found for nosuchpkg')).toBe(' (package nosuchpkg)');
    expect(failedPackage('something else went wrong')).toBe('');
  });
});
