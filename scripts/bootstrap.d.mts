export const root: string;
export function sh(cmd: string, args: string[], opts?: object): void;
export function buildIfStale(): void;
export function generateClients(): void;
export function prepare(): void;
