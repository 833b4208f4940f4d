// The account console: its pages, registered under /console on the app (http/build.ts).
import type { FastifyInstance } from 'fastify';
import { startCheckout } from '../../accounts/billing.js';
import type { Deps } from '../../kernel/deps.js';
import { registerAccountPages } from './account-pages.js';
import { registerAuthPages } from './auth-pages.js';
import { registerKeyPages } from './keys-pages.js';
import { registerOperatorPages } from './operator-pages.js';
import { formOf, PageError, Redirect, registerConsolePlugin, signedIn } from './plugin.js';
import { registerUsagePages } from './usage-pages.js';

export function registerConsole(app: FastifyInstance, deps: Deps): void {
  registerConsolePlugin(app, deps, (scope) => {
    registerAuthPages(scope, deps);
    registerAccountPages(scope, deps);
    registerUsagePages(scope, deps);
    registerKeyPages(scope, deps);
    registerOperatorPages(scope, deps);
    scope.post('/checkout', async (request, reply) => {
      const { account } = await signedIn(deps, request, reply);
      const plan = formOf(request.body).plan;
      if (plan !== 'basic' && plan !== 'desk') throw new PageError(400, 'Choose the basic or the desk plan.');
      throw new Redirect(await startCheckout(deps, account, plan));
    });
  });
}
