export const SOURCE: string;
export const POSTGRES: string;
export function postgresSchema(source: string): string;
