// Hook steps that finish in the same turn when they can: Fastify moves on from a hook that calls `done`
// without waiting for a microtask.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MaybePromise } from '../kernel/steps.js';

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
