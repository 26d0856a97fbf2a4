// `--import` this to register ts-cache-hooks.mjs (see there).
import { register } from 'node:module';

register('./ts-cache-hooks.mjs', import.meta.url);
