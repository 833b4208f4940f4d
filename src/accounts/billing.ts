// The payment processor's word on plans: Stripe events (already verified by the transport) set or end an
// account's plan. Each event id is applied once; events of other types are acknowledged and ignored.
import Stripe from 'stripe';
import type { Deps } from '../kernel/deps.js';
import { AppError } from '../kernel/errors.js';
import { type Account, endPlan, findAccount, setPlan } from './accounts.js';
import { type Actor, recordActivity } from './activity.js';
import { consoleBase } from './console-auth.js';
import { isPlanId, PAID_PLANS, type PlanId } from './plans.js';

/** The fields of a Stripe event Quarry reads; the rest is ignored. */
export interface StripeEvent {
  id: string;
  type: string;
  data: { object: StripeObject };
}

interface StripeObject {
  client_reference_id?: string | null;
  customer?: string | { id: string } | null;
  customer_email?: string | null;
  customer_details?: { email?: string | null } | null;
  metadata?: Record<string, string> | null;
  status?: string;
}

export type EventOutcome = 'applied' | 'duplicate' | 'ignored' | 'no account' | 'no plan named';

const PROCESSOR: Actor = { label: 'payment processor', address: null };
/** A subscription in these states is paid for; in any other it is not. */
const PAYING = new Set(['active', 'trialing', 'past_due']);

export async function applyStripeEvent(deps: Deps, event: StripeEvent): Promise<EventOutcome> {
  const db = deps.store.db;
  const seen = await db
    .selectFrom('stripe_events')
    .select('id')
    .where('id', '=', event.id)
    .executeTakeFirst();
  if (seen) return 'duplicate';
  const object = event.data.object;
  let outcome: EventOutcome = 'ignored';
  let account: Account | null = null;
  if (HANDLED.has(event.type)) {
    account = await accountOf(deps, object);
    outcome = account ? await apply(deps, event, account) : 'no account';
  }
  await db
    .insertInto('stripe_events')
    .values({
      id: event.id,
      type: event.type,
      account_id: account?.id ?? null,
      outcome,
      received_at: deps.clock().toISOString(),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return outcome;
}

const HANDLED = new Set([
  'checkout.session.completed',
  'customer.subscription.updated',
  'customer.subscription.deleted',
]);

async function apply(deps: Deps, event: StripeEvent, account: Account): Promise<EventOutcome> {
  const object = event.data.object;
  const now = deps.clock();
  const db = deps.store.db;
  const customer = customerId(object);
  if (customer) {
    await db
      .updateTable('accounts')
      .set({ stripe_customer: customer })
      .where('id', '=', account.id)
      .execute();
  }
  const ending =
    event.type === 'customer.subscription.deleted' ||
    (event.type === 'customer.subscription.updated' && !PAYING.has(object.status ?? 'active'));
  if (ending) {
    await endPlan(deps, { accountId: account.id, at: now });
    await recordActivity(db, account.id, PROCESSOR, 'plan ended', `${account.plan} (${event.id})`, now);
    return 'applied';
  }
  const plan = object.metadata?.plan;
  if (!plan || !isPlanId(plan) || !PAID_PLANS.includes(plan as PlanId)) return 'no plan named';
  // A plan already running as asked is left alone: a repeated event must not grant a second period.
  if (account.plan === plan && account.planEndsAt === null) return 'applied';
  await setPlan(deps, { accountId: account.id, plan: plan as PlanId });
  await recordActivity(db, account.id, PROCESSOR, 'plan set', `${plan} (${event.id})`, now);
  return 'applied';
}

/** client_reference_id (set by the console), then the account that paid before, then the customer's email. */
async function accountOf(deps: Deps, object: StripeObject): Promise<Account | null> {
  const db = deps.store.db;
  const reference = object.client_reference_id ?? object.metadata?.account_id;
  if (reference) {
    const account = await findAccount(db, reference);
    if (account) return account;
  }
  const customer = customerId(object);
  if (customer) {
    const row = await db
      .selectFrom('accounts')
      .select('id')
      .where('stripe_customer', '=', customer)
      .executeTakeFirst();
    if (row) return findAccount(db, row.id);
  }
  const email = (object.customer_details?.email ?? object.customer_email)?.trim().toLowerCase();
  if (email) {
    const row = await db.selectFrom('accounts').select('id').where('email', '=', email).executeTakeFirst();
    if (row) return findAccount(db, row.id);
  }
  return null;
}

function customerId(object: StripeObject): string | null {
  const customer = object.customer;
  if (!customer) return null;
  return typeof customer === 'string' ? customer : customer.id;
}

/**
 * Sends a customer to Stripe Checkout for `plan`: the session names the account (client_reference_id) and
 * the plan (metadata, on the session and on the subscription it makes), which the webhook reads back.
 * Answers the Checkout page's address.
 */
export async function startCheckout(deps: Deps, account: Account, plan: 'basic' | 'desk'): Promise<string> {
  const { stripeSecretKey, stripePrices, stripeUrl } = deps.config;
  const price = stripePrices[plan];
  if (!stripeSecretKey || !price) {
    throw new AppError('invalid_params', `Plan ${plan} cannot be bought here; the operator sets plans.`);
  }
  const host = new URL(stripeUrl);
  const stripe = new Stripe(stripeSecretKey, {
    host: host.hostname,
    port: Number(host.port || (host.protocol === 'https:' ? 443 : 80)),
    protocol: host.protocol === 'https:' ? 'https' : 'http',
    maxNetworkRetries: 2,
    timeout: 20_000,
  });
  const back = consoleBase(deps);
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    line_items: [{ price, quantity: 1 }],
    client_reference_id: account.id,
    customer_email: account.email,
    metadata: { plan, account_id: account.id },
    subscription_data: { metadata: { plan, account_id: account.id } },
    success_url: `${back}/overview?notice=checkout-done`,
    cancel_url: `${back}/overview`,
  });
  if (!session.url)
    throw new AppError('service_unavailable', 'Stripe did not give a Checkout address; try again.');
  return session.url;
}
