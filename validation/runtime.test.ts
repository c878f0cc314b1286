import { describe, expect, it } from 'vitest';
import { ucs2length } from './runtime.ts';

describe('ucs2length', () => {
  it('counts code points, as minLength and maxLength do', () => {
    expect(ucs2length('Mumbai')).toBe(6);
    expect(ucs2length('Chennai 🚢')).toBe(9);
    expect(ucs2length('')).toBe(0);
  });
});
