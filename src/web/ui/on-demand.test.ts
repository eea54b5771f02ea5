import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { onDemand } from './on-demand';

const settle = () => new Promise((resolve) => setImmediate(resolve));
const Component = () => null;

describe('onDemand', () => {
  it('loads once however often it is asked', async () => {
    let loads = 0;
    const widget = onDemand(async () => {
      loads += 1;
      return { default: Component };
    });
    widget.preload();
    widget.preload();
    await settle();
    widget.preload();
    expect(loads).toBe(1);
  });

  it('tries again at the next need after a failed load', async () => {
    let loads = 0;
    const widget = onDemand(async () => {
      loads += 1;
      if (loads === 1) throw new Error('offline');
      return { default: Component };
    });
    widget.preload();
    await settle();
    widget.preload();
    await settle();
    widget.preload();
    expect(loads).toBe(2);
  });
});

describe('onDemand while a part of the page wants it', () => {
  it('tries a failed load again after a wait, doubling it, until it loads', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    let loads = 0;
    const widget = onDemand(async () => {
      loads += 1;
      if (loads < 3) throw new Error('offline');
      return { default: Component };
    });
    const stop = widget.want();
    await vi.advanceTimersByTimeAsync(0);
    expect(loads).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(loads).toBe(2);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(loads).toBe(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(loads).toBe(3);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(loads).toBe(3);
    stop();
  });

  it('tries again as soon as the browser is back online, and stops when no longer wanted', async () => {
    const browser = new EventTarget();
    vi.stubGlobal('addEventListener', browser.addEventListener.bind(browser));
    vi.stubGlobal('removeEventListener', browser.removeEventListener.bind(browser));
    onTestFinished(() => {
      vi.unstubAllGlobals();
    });
    let loads = 0;
    const widget = onDemand(async () => {
      loads += 1;
      throw new Error('offline');
    });
    const stop = widget.want();
    await settle();
    expect(loads).toBe(1);
    browser.dispatchEvent(new Event('online'));
    await settle();
    expect(loads).toBe(2);
    stop();
    browser.dispatchEvent(new Event('online'));
    await settle();
    expect(loads).toBe(2);
  });
});
