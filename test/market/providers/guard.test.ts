import { describe, expect, it } from 'vitest';
import { Limiter } from '../../../src/market/providers/guard.js';

/** A call that records when it starts and finishes when `release` is called. */
function gate(log: string[], name: string) {
  let release = () => {};
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    work: async () => {
      log.push(name);
      await done;
      return name;
    },
    release: () => release(),
  };
}

describe('Limiter', () => {
  it('keeps at most its limit in flight and starts the waiting calls in order, urgent ones first', async () => {
    const log: string[] = [];
    const limiter = new Limiter(2);
    const calls = ['a', 'b', 'c', 'd', 'quote'].map((name) => ({ name, ...gate(log, name) }));
    const [a, b, c, d, quote] = calls as [
      (typeof calls)[0],
      (typeof calls)[0],
      (typeof calls)[0],
      (typeof calls)[0],
      (typeof calls)[0],
    ];
    const answers = [a, b, c, d].map((call) => limiter.run(call.work));
    answers.push(limiter.run(quote.work, true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['a', 'b']);
    a.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['a', 'b', 'quote']);
    for (const call of [b, quote, c, d]) {
      call.release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(log).toEqual(['a', 'b', 'quote', 'c', 'd']);
    expect(await Promise.all(answers)).toEqual(['a', 'b', 'c', 'd', 'quote']);
  });
});
