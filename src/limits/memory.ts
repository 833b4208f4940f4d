import { type Counters, type Hit, windowOf } from './counters.js';

interface Slot {
  index: number;
  used: number;
}

/** Counters of one process. Stale windows are swept once a minute. */
export class MemoryCounters implements Counters {
  private readonly slots = new Map<string, Slot>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly clock: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  hit(key: string, amount: number, limit: number, windowMs: number): Hit {
    const { index, resetMs } = windowOf(this.clock(), windowMs);
    const slotKey = `${windowMs}:${key}`;
    let slot = this.slots.get(slotKey);
    if (!slot || slot.index !== index) {
      slot = { index, used: 0 };
      this.slots.set(slotKey, slot);
    }
    if (slot.used + amount > limit) return { allowed: false, used: slot.used, resetMs };
    slot.used += amount;
    return { allowed: true, used: slot.used, resetMs };
  }

  async release(key: string, amount: number, windowMs: number): Promise<void> {
    const slot = this.slots.get(`${windowMs}:${key}`);
    if (slot && slot.index === windowOf(this.clock(), windowMs).index) {
      slot.used = Math.max(0, slot.used - amount);
    }
  }

  private sweep(): void {
    const now = this.clock();
    for (const [slotKey, slot] of this.slots) {
      const windowMs = Number(slotKey.slice(0, slotKey.indexOf(':')));
      if (slot.index !== windowOf(now, windowMs).index) this.slots.delete(slotKey);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }
}
