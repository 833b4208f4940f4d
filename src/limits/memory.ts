import { type Counters, type Hit, windowOf } from './counters.js';

interface Slot {
  index: number;
  used: number;
}

/** Counters of one process, by window length and then key. Stale windows are swept once a minute. */
export class MemoryCounters implements Counters {
  private readonly windows = new Map<number, Map<string, Slot>>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly clock: () => number) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  hit(key: string, amount: number, limit: number, windowMs: number): Hit {
    const { index, resetMs } = windowOf(this.clock(), windowMs);
    const slots = this.slots(windowMs);
    let slot = slots.get(key);
    if (!slot || slot.index !== index) {
      slot = { index, used: 0 };
      slots.set(key, slot);
    }
    if (slot.used + amount > limit) return { allowed: false, used: slot.used, resetMs };
    slot.used += amount;
    return { allowed: true, used: slot.used, resetMs };
  }

  async release(key: string, amount: number, windowMs: number): Promise<void> {
    const slot = this.windows.get(windowMs)?.get(key);
    if (slot && slot.index === windowOf(this.clock(), windowMs).index) {
      slot.used = Math.max(0, slot.used - amount);
    }
  }

  private slots(windowMs: number): Map<string, Slot> {
    let slots = this.windows.get(windowMs);
    if (!slots) {
      slots = new Map();
      this.windows.set(windowMs, slots);
    }
    return slots;
  }

  private sweep(): void {
    const now = this.clock();
    for (const [windowMs, slots] of this.windows) {
      const current = windowOf(now, windowMs).index;
      for (const [key, slot] of slots) if (slot.index !== current) slots.delete(key);
    }
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    clearInterval(this.sweeper);
  }
}
