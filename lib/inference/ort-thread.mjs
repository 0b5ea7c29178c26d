// Entry of the inference thread: loads ort-thread.ts through tsx's loader, as bin/keyout.mjs
// does, whatever the parent runs under (tsx, vitest or plain node).
import { register } from 'tsx/esm/api';

register();
await import('./ort-thread.ts');
