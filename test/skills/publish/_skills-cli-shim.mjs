// Test-only: `node --import` this to run the `skills` CLI (which declares Node >= 22.20) on Node 20.
import { register } from 'node:module';

register('./_skills-cli-hooks.mjs', import.meta.url);
