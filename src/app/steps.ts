// Hook steps that finish in the same turn when they can. A cached key or a known balance needs no promise,
// and Fastify moves on from a hook that calls `done` without waiting for a microtask.
import type { FastifyReply, FastifyRequest } from 'fastify';

export type MaybePromise<T> = T | Promise<T>;

/** Applies `next` to a value now, or once its promise settles. */
export function andThen<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

export type Step = (request: FastifyRequest, reply: FastifyReply) => MaybePromise<void>;

type Done = (error?: Error | null, payload?: unknown) => void;

/** An onRequest / preHandler hook: Fastify waits on the promise when the step returns one. */
export function requestHook(step: Step) {
  return (request: FastifyRequest, reply: FastifyReply, done: Done): Promise<void> | undefined => {
    const result = step(request, reply);
    if (result instanceof Promise) return result;
    done();
    return undefined;
  };
}

/** An onSend hook that leaves the payload as it is. */
export function sendHook(step: Step) {
  return (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: Done) => {
    const result = step(request, reply);
    if (result instanceof Promise) return result;
    done(null, payload);
    return undefined;
  };
}
