// Long work is done in pieces, and each piece waits for a turn of the event loop of its own before it starts.
// Pieces that become ready together (five large answers whose reads ended at once, the next page of a build
// beside them) run one per turn, with timers, I/O and the light requests answered between them; a plain
// setImmediate would run them all in the same check phase, one long block (docs/adr/025).
const waiting: Array<() => void> = [];

/** Resolves in a later turn of the event loop than the call, after the pieces that asked before it. */
export function ownTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (waiting.length === 1) setImmediate(next);
  });
}

function next(): void {
  waiting.shift()?.();
  // Queued from the check phase, the next piece's immediate runs in the following turn.
  if (waiting.length > 0) setImmediate(next);
}
