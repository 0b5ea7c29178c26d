#!/usr/bin/env node
// `npx keyout …`: runs the TypeScript CLI through tsx's loader (no build step for self-hosters).
import { register } from 'tsx/esm/api';

register();
await import('./keyout.ts');
