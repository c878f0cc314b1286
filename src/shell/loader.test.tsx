import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loader } from './loader.ts';
import { LoaderOverlay } from './LoaderOverlay.tsx';

afterEach(() => {
  while (loader.count() > 0) loader.disable();
  vi.restoreAllMocks();
});

describe('the loader', () => {
  it('LOADER-01 shows a full-page overlay with three pulsing dots that fades in over 0.5 s while active', () => {
    const { container } = render(<LoaderOverlay />);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    act(() => loader.enable());
    const overlay = screen.getByRole('status');
    expect(overlay).toHaveTextContent('Loading…');
    expect(overlay).toHaveStyle({ animationDuration: '0.5s' });
    expect(container.querySelectorAll('.loader-dot')).toHaveLength(3);
  });

  it('LOADER-02 is a counter: shown while above zero, hidden when every enable has its disable', () => {
    render(<LoaderOverlay />);
    act(() => {
      loader.enable();
      loader.enable();
    });
    expect(loader.count()).toBe(2);
    act(() => loader.disable());
    expect(screen.getByRole('status')).toBeInTheDocument();
    act(() => loader.disable());
    expect(loader.count()).toBe(0);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('LOADER-03 a count below zero is reset to zero with a console warning about pairing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    loader.disable();
    expect(loader.count()).toBe(0);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/enable\(\) and disable\(\) must be called in pairs/));
    loader.enable();
    expect(loader.count()).toBe(1);
  });
});
