// Entry of the edge-colour thread: loads foreground-thread.ts through tsx's loader, as
// ort-thread.mjs does, whatever the parent runs under (tsx, vitest or plain node).
import { register } from 'tsx/esm/api';

register();
await import('./foreground-thread.ts');
