// The answer deadline of /v1/data and /v1/history (spec: about 12 seconds). An item not ready by then is
// answered with a timeout error; its work goes on, so what it reads lands in the provider's cache and a
// retry a moment later finds it.

export const ANSWER_WITHIN_MS = 12_000;

export class Deadline {
  private timer: NodeJS.Timeout | undefined;
  private readonly passed: Promise<void>;

  constructor(readonly ms: number) {
    this.passed = new Promise((resolve) => {
      this.timer = setTimeout(resolve, ms);
    });
  }

  /** The work's result, or `late()` if the deadline passes first. */
  race<T>(work: Promise<T>, late: () => T): Promise<T> {
    // Work that fails after its item was answered has nobody left to tell.
    work.catch(() => {});
    return Promise.race([work, this.passed.then(late)]);
  }

  /** The error of an item or field that was not ready in time. */
  get error() {
    return {
      code: 'timeout' as const,
      message: `not ready within ${this.ms / 1000} seconds; retry in a moment`,
    };
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}
