import { createHash, randomInt } from 'node:crypto';
import { db } from '../db/client';

/**
 * API keys: `ko_` followed by exactly 32 base62 characters. Only the SHA-256 hash and a short
 * display prefix are stored; the full key is shown once, at creation.
 */
export const API_KEY_PREFIX = 'ko_';
const BODY_LENGTH = 32;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Characters kept for display: the fixed prefix plus 6 of the secret part. */
const DISPLAY_LENGTH = API_KEY_PREFIX.length + 6;

const KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9]{${BODY_LENGTH}}$`);

export function generateApiKey(): string {
  let body = '';
  for (let i = 0; i < BODY_LENGTH; i++) body += ALPHABET[randomInt(ALPHABET.length)];
  return API_KEY_PREFIX + body;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function isWellFormedApiKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_LENGTH);
}

export interface AuthenticatedKey {
  keyId: string;
  userId: string;
}

/** Resolves a presented key to its owner, or null when it is unknown or revoked. */
export async function findActiveApiKey(key: string): Promise<AuthenticatedKey | null> {
  if (!isWellFormedApiKey(key)) return null;
  const row = await db().apiKey.findUnique({
    where: { hash: hashApiKey(key) },
    select: { id: true, userId: true, revokedAt: true },
  });
  if (!row || row.revokedAt) return null;
  return { keyId: row.id, userId: row.userId };
}

const TOUCH_EVERY_MS = 60_000;
const lastTouched = new Map<string, number>();

/**
 * Usage stamps are advisory: written at most once a minute per key and process, so the hot
 * path (every request) does not take SQLite's write lock for them.
 */
export async function touchApiKey(keyId: string, now = new Date()): Promise<void> {
  const last = lastTouched.get(keyId) ?? 0;
  if (now.getTime() - last < TOUCH_EVERY_MS) return;
  lastTouched.set(keyId, now.getTime());
  if (lastTouched.size > 10_000) lastTouched.clear();
  await db().apiKey.updateMany({
    where: {
      id: keyId,
      OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now.getTime() - TOUCH_EVERY_MS) } }],
    },
    data: { lastUsedAt: now },
  });
}
