/**
 * Which front door the user came in by, so a message names a command they can run: this
 * repository's npm scripts (`npm start`, `npm run status`), or the Serverless CLI in a service
 * that installed the plugin (`npx serverless sluice start`), which has no such scripts. The
 * plugin says so when osls loads it; everything else is the npm door.
 */
export type FrontDoor = 'npm' | 'serverless';

/**
 * Kept on globalThis: from the sources, osls require()s the plugin through tsx while the command
 * modules are imported as ESM, so this module can be loaded twice (an e2e run said `npm start`
 * at the Serverless CLI's door); every copy reads the one value.
 */
const DOOR = Symbol.for('sluice.frontDoor');
const held = globalThis as { [DOOR]?: FrontDoor };

export function useFrontDoor(d: FrontDoor): void {
  held[DOOR] = d;
}

/**
 * The command line of `command` with `args` at the door in use: `npm start -- -f orders`,
 * `npm run status`, `npx serverless sluice start -f orders`. `npmArgs` when the npm door's
 * differ (a positional topic there, `--topic` at the other).
 */
export function commandLine(command: string, args = '', npmArgs = args): string {
  if (held[DOOR] === 'serverless') return `npx serverless sluice ${command}${args ? ` ${args}` : ''}`;
  const npm = command === 'start' ? 'npm start' : `npm run ${command}`;
  return `${npm}${npmArgs ? ` -- ${npmArgs}` : ''}`;
}
