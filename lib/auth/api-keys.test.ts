import { describe, expect, it } from 'vitest';
import {
  API_KEY_PREFIX,
  displayPrefix,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
} from './api-keys';

describe('api keys', () => {
  it('are the fixed prefix followed by exactly 32 characters', () => {
    const key = generateApiKey();
    expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(key.length - API_KEY_PREFIX.length).toBe(32);
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('are random', () => {
    expect(new Set(Array.from({ length: 50 }, generateApiKey)).size).toBe(50);
  });

  it('hash to a stable sha256 and display only a short prefix', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).toBe(hashApiKey(key));
    expect(displayPrefix(key)).toBe(key.slice(0, 9));
  });

  it('refuses malformed keys before any lookup', () => {
    expect(isWellFormedApiKey('')).toBe(false);
    expect(isWellFormedApiKey(`${API_KEY_PREFIX}short`)).toBe(false);
    expect(isWellFormedApiKey(`xx_${'a'.repeat(32)}`)).toBe(false);
    expect(isWellFormedApiKey(`${API_KEY_PREFIX}${'a'.repeat(31)}!`)).toBe(false);
  });
});
