// Imports every module named on the command line, as the CLI's own Node process would.
import { pathToFileURL } from 'node:url';

for (const file of process.argv.slice(2)) await import(pathToFileURL(file).href);
