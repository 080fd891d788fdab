import { readFileSync } from 'node:fs';
import { packageFile } from './util/package-file.js';

/** waver's version, from its package.json. */
export const WAVER_VERSION: string = (
  JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }
).version;
