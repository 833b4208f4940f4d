// Pieces of long work that become ready together run in successive turns of the event loop.
import { describe, expect, it } from 'vitest';
import { ownTurn } from '../../src/kernel/turns.js';

/** Counts turns of the event loop: it runs once in every check phase until stopped. */
function turnCounter() {
  let turn = 0;
  let running = true;
  const tick = () => {
    turn += 1;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    get turn() {
      return turn;
    },
    stop() {
      running = false;
    },
  };
}

describe('ownTurn', () => {
  it('runs pieces asked for in the same turn one turn apart, in the order asked', async () => {
    const counter = turnCounter();
    const seen: Array<[string, number]> = [];
    await Promise.all(
      ['a', 'b', 'c', 'd'].map(async (name) => {
        await ownTurn();
        seen.push([name, counter.turn]);
      }),
    );
    counter.stop();
    expect(seen.map(([name]) => name)).toEqual(['a', 'b', 'c', 'd']);
    const turns = seen.map(([, turn]) => turn);
    for (let k = 1; k < turns.length; k += 1) expect(turns[k]).toBe(turns[k - 1]! + 1);
  });

  it('resolves in a later turn than the one it was asked in, even when nothing else waits', async () => {
    const counter = turnCounter();
    const asked = counter.turn;
    await ownTurn();
    const ran = counter.turn;
    counter.stop();
    expect(ran).toBeGreaterThan(asked);
  });

  it('serves pieces asked for after the queue emptied, in order', async () => {
    await ownTurn();
    const order: number[] = [];
    await Promise.all([1, 2, 3].map((n) => ownTurn().then(() => order.push(n))));
    expect(order).toEqual([1, 2, 3]);
  });
});
