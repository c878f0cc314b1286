import { describe, expect, it, vi } from 'vitest';
import { silenceConsole } from './silenceConsole.ts';

const fakeConsole = () => ({ log: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() });

describe('console in production', () => {
  it('ERR-07 production builds silence console log, info and warn, and keep error', () => {
    const target = fakeConsole();
    const error = target.error;
    silenceConsole(true, target);
    target.log('a');
    target.info('b');
    target.warn('c');
    expect(vi.isMockFunction(target.log)).toBe(false);
    expect(vi.isMockFunction(target.info)).toBe(false);
    expect(vi.isMockFunction(target.warn)).toBe(false);
    expect(target.error).toBe(error);
  });

  it('ERR-07 development builds keep the console as it is', () => {
    const target = fakeConsole();
    silenceConsole(false, target);
    target.log('a');
    expect(target.log).toHaveBeenCalledWith('a');
  });
});
