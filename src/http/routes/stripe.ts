// POST /webhooks/stripe: the payment processor's events, checked against STRIPE_WEBHOOK_SECRET with the
// official library's signature check on the raw body, then applied once each (accounts/billing.ts).
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { applyStripeEvent, type StripeEvent } from '../../accounts/billing.js';
import type { Deps } from '../../kernel/deps.js';
import { AppError } from '../../kernel/errors.js';

export function registerStripeWebhook(app: FastifyInstance, deps: Deps): void {
  app.register(async (scope) => {
    // The signature covers the bytes as sent, so the body is kept raw.
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: 512 * 1024 },
      (_r, body, done) => done(null, body),
    );
    scope.post('/webhooks/stripe', async (request, reply) => {
      const secret = deps.config.stripeWebhookSecret;
      if (!secret) throw new AppError('not_found', 'Stripe is not configured on this deployment.');
      const signature = request.headers['stripe-signature'];
      if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) {
        throw new AppError(
          'invalid_params',
          'Send the event as Stripe does: a JSON body and a Stripe-Signature header.',
        );
      }
      let event: StripeEvent;
      try {
        // Verified against the signature; the members read are the ones StripeEvent names.
        Stripe.webhooks.constructEvent(request.body, signature, secret);
        event = JSON.parse(request.body.toString('utf8'));
      } catch {
        throw new AppError('invalid_params', 'The Stripe-Signature header does not match this body.');
      }
      const outcome = await applyStripeEvent(deps, event);
      request.log.info({ event: event.id, type: event.type, outcome }, 'stripe event');
      return reply.code(200).send({ received: true, outcome });
    });
  });
}
