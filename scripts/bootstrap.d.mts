export const root: string;
export function sh(cmd: string, args: string[], opts?: object): void;
export function buildIsCurrent(dir?: string): boolean;
export function buildBlocker(dir?: string): string | null;
export function markServing(): void;
export function buildIfStale(): void;
export function generateClients(): void;
export function prepare(): void;
