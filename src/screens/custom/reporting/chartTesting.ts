import { vi } from 'vitest';

/**
 * Tests only. uPlot draws on a canvas, which jsdom does not implement: only the missing browser pieces are stubbed (a
 * 2D context that draws nothing, Path2D, matchMedia), the chart library runs for real. Returns the kinds of context
 * asked for, one per chart drawn. Undo with vi.unstubAllGlobals() and vi.restoreAllMocks().
 */
export function stubCanvas(): string[] {
  const drawn: string[] = [];
  const context = new Proxy({} as Record<string | symbol, unknown>, {
    get: (target, key) => (key in target ? target[key] : () => ({ width: 0 })),
    set: (target, key, value) => {
      target[key] = value;
      return true;
    },
  });
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(function (
    this: HTMLCanvasElement,
    kind: string,
  ) {
    drawn.push(kind);
    return context as unknown as CanvasRenderingContext2D;
  } as HTMLCanvasElement['getContext']);
  vi.stubGlobal(
    'Path2D',
    class {
      moveTo() {}
      lineTo() {}
      rect() {}
      arc() {}
      closePath() {}
      bezierCurveTo() {}
      quadraticCurveTo() {}
      addPath() {}
    },
  );
  vi.stubGlobal('matchMedia', () => ({
    matches: false,
    addEventListener() {},
    removeEventListener() {},
    addListener() {},
    removeListener() {},
  }));
  return drawn;
}
