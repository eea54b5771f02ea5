import { describe, expect, it } from 'vitest';
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
