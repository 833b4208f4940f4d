// Steps that finish in the same turn when they can: a cached key or a known balance needs no promise.

export type MaybePromise<T> = T | Promise<T>;

/** Applies `next` to a value now, or once its promise settles. */
export function andThen<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}
