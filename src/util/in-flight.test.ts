import { describe, expect, it } from 'vitest';
import { InFlight } from './in-flight.js';

describe('InFlight', () => {
  it('shares one piece of work per key while it runs, and forgets the key once it settles', async () => {
    const inFlight = new InFlight<number>();
    let started = 0;
    const work = () => new Promise<number>((resolve) => setTimeout(() => resolve(++started), 5));
    const [a, b, c] = await Promise.all([
      inFlight.share('k', work),
      inFlight.share('k', work),
      inFlight.share('other', work),
    ]);
    expect([a, b, started]).toEqual([a, a, 2]);
    expect(c).not.toBe(a);
    expect(inFlight.has('k')).toBe(false);
    await inFlight.share('k', work);
    expect(started).toBe(3);
  });

  it('forgets a failed piece of work too, so the next ask starts again', async () => {
    const inFlight = new InFlight<number>();
    await expect(inFlight.share('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(inFlight.has('k')).toBe(false);
    await expect(inFlight.share('k', async () => 7)).resolves.toBe(7);
  });

  it('holds a key past its work until forgotten, and forget leaves a later holder of the key', async () => {
    const inFlight = new InFlight<boolean>();
    const first = Promise.resolve(true);
    inFlight.hold('k', first);
    await first;
    expect(inFlight.get('k')).toBe(first);
    const second = Promise.resolve(false);
    inFlight.hold('k', second);
    inFlight.forget('k', first);
    expect(inFlight.get('k')).toBe(second);
    inFlight.forget('k', second);
    expect(inFlight.has('k')).toBe(false);
  });
});
