// The console end to end in a real browser (Debian's chromium driven by playwright-core) against a real
// server process: sign up, confirm by the mailed link, get a plan from a signed Stripe event, make a key,
// call the API with it, see the call in usage, revoke it, see the next call refused. Screenshots of each
// page go to QUARRY_SCREENSHOTS (the README's are made with `npm run screenshots`).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastLink, signedEvent } from '../../helpers/console.js';
import { type ServerProcess, startServer } from '../../helpers/server.js';

const SECRET = 'whsec_browser_test_secret';
const EMAIL = 'dana@example.com';
const PASSWORD = 'correct horse battery 9';
const SHOTS = process.env.QUARRY_SCREENSHOTS ?? path.join(tmpdir(), 'quarry-console-screenshots');
const CHROMIUM = '/usr/bin/chromium';

/** Debian's chromium; without it the suite is skipped, and under CI's QUARRY_TEST_REQUIRE_SERVICES it fails. */
function haveChromium(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.QUARRY_TEST_REQUIRE_SERVICES === '1')
    throw new Error(`${CHROMIUM} is required (apt-get install chromium)`);
  console.log(`Skipping the browser suite: ${CHROMIUM} not found (apt-get install chromium).`);
  return false;
}

describe.runIf(haveChromium())('the console in a browser', () => {
  let dataDir: string;
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  let output = '';

  const quarry = async (...args: string[]) => {
    const { stdout } = await promisify(execFile)(process.execPath, ['dist/cli/main.js', ...args], {
      env: { ...process.env, QUARRY_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    });
    return JSON.parse(stdout);
  };
  /** Saves the page, after checking that every field of it has a label a screen reader can announce. */
  const shot = async (name: string) => {
    const unlabelled = await page.evaluate(
      `[...document.querySelectorAll('input:not([type=hidden]), select, textarea')].filter((e) => e.labels.length === 0 && !e.getAttribute('aria-label')).map((e) => e.name)`,
    );
    expect(unlabelled, `unlabelled fields on ${name}`).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  };
  const api = (key: string) =>
    fetch(`${server.url}/v1/macro/cpi`, { headers: { authorization: `Bearer ${key}` } });

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-console-'));
    server = await startServer({
      QUARRY_DATA_DIR: dataDir,
      DATA_API_ENABLED: 'true',
      STRIPE_WEBHOOK_SECRET: SECRET,
      // Every request and every event is logged, so that the test can look for secrets in the lines.
      LOG_LEVEL: 'debug',
    });
    server.child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    server.child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    // The browser keeps the machine's own clock: under a moved clock (libfaketime) Chromium does not start.
    const { LD_PRELOAD: _preload, FAKETIME: _faketime, ...browserEnv } = process.env;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      env: browserEnv as Record<string, string>,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('sign up, confirm, plan from Stripe, key, call, usage, revoke: end to end', {
    timeout: 120_000,
  }, async () => {
    expect(server.printed).toContain(
      `account console at ${server.url}/console; its mail goes to the outbox folder ${path.join(dataDir, 'outbox')}`,
    );
    await page.goto(`${server.url}/console`);
    expect(await page.locator('h1').textContent()).toBe('Sign in');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await shot('01-sign-up');
    await page.getByRole('button', { name: 'Create account' }).click();
    expect(await page.locator('h1').textContent()).toBe('Check your mail');

    await page.goto(`${server.url}${lastLink(dataDir, EMAIL, 'confirm')}`);
    expect(await page.locator('h1').textContent()).toBe('Address confirmed');
    await shot('02-confirmed');

    // Sign in with the keyboard alone.
    await page.goto(`${server.url}/console/sign-in`);
    await page.getByLabel('Email').focus();
    await page.keyboard.type(EMAIL);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/console/overview');
    expect(await page.locator('dl.facts').first().textContent()).toContain('no plan');
    await shot('03-overview-no-plan');

    const listed = await quarry('accounts', 'list', '--email', EMAIL);
    expect(listed.accounts).toHaveLength(1);
    const accountId = listed.accounts[0].id as string;
    expect(listed.accounts[0]).toMatchObject({ email: EMAIL, emailConfirmed: true, plan: 'none' });

    const { payload, signature } = signedEvent(SECRET, {
      id: 'evt_browser_1',
      object: 'event',
      type: 'checkout.session.completed',
      data: {
        object: {
          object: 'checkout.session',
          client_reference_id: accountId,
          customer: 'cus_T1',
          metadata: { plan: 'desk' },
        },
      },
    });
    const hook = await fetch(`${server.url}/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body: payload,
    });
    expect(await hook.json()).toEqual({ received: true, outcome: 'applied' });
    await page.reload();
    const facts = await page.locator('dl.facts').first().textContent();
    expect(facts).toContain('desk');
    expect(facts).toContain('active');
    expect(facts).toContain('1,000,000 of 1,000,000 left');
    await shot('04-overview-desk');

    await page.getByRole('link', { name: 'Keys' }).click();
    await page.getByRole('button', { name: 'Create a datasets key' }).click();
    const key = (await page.locator('#new-key').textContent())?.trim() as string;
    expect(key).toMatch(/^gds_[A-Za-z0-9]{33}$/);
    await shot('05-key-shown-once');

    expect((await api(key)).status).toBe(200);
    await page.getByRole('link', { name: 'Usage' }).click();
    const usage = await page.locator('main').textContent();
    expect(usage).toContain('Current period');
    expect(await page.locator('svg.chart').count()).toBe(1);
    expect(await page.locator('table').first().locator('tbody tr').first().textContent()).toMatch(
      /^\d{4}-\d{2}-\d{2}11$/,
    );
    await shot('06-usage');

    await page.getByRole('link', { name: 'Keys' }).click();
    expect(await page.locator('main').textContent()).not.toContain(key);
    await page.getByRole('link', { name: /^Revoke/ }).click();
    await shot('07-revoke-confirm');
    await page.getByRole('button', { name: 'Revoke the key' }).click();
    expect(await page.locator('.notice').textContent()).toContain('is revoked');
    // The revoked key is refused within the documented two seconds.
    await expect.poll(async () => (await api(key)).status, { timeout: 2500, interval: 250 }).toBe(401);

    await page.getByRole('link', { name: 'Activity' }).click();
    const rows = await page.locator('tbody tr').allTextContents();
    expect(rows.some((r) => r.includes('key revoked') && r.includes(EMAIL) && r.includes('127.0.0.1'))).toBe(
      true,
    );
    expect(rows.some((r) => r.includes('plan set') && r.includes('payment processor'))).toBe(true);
    await shot('08-activity');

    await quarry('accounts', 'set-admin', accountId);
    await page.goto(`${server.url}/console/admin?q=dana`);
    await page.getByRole('link', { name: accountId }).click();
    expect(await page.locator('h1').textContent()).toBe(`Account ${accountId}`);
    await shot('09-operator');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('link', { name: 'Overview' }).click();
    const width = await page.evaluate('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(390);
    await shot('10-overview-phone');
    // Every column of the usage tables is on screen at phone width: each row stacks its cells, labelled.
    await page.getByRole('link', { name: 'Usage' }).click();
    // The usage page itself, loaded with its styles, before its cells are measured (a busy machine can still
    // be showing the overview when the click returns).
    await page.waitForURL('**/console/usage');
    await page.waitForLoadState('load');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    // Run in the page (a string, as the page's own script: the test's types hold no DOM).
    const cells = (await page.evaluate(`[...document.querySelectorAll('table td')].map((td) => {
      const box = td.getBoundingClientRect();
      return { left: box.left, right: box.right, label: getComputedStyle(td, '::before').content };
    })`)) as { left: number; right: number; label: string }[];
    expect(cells.length).toBeGreaterThan(0);
    for (const cell of cells) {
      expect(cell.left).toBeGreaterThanOrEqual(0);
      expect(cell.right).toBeLessThanOrEqual(390);
      expect(cell.label).not.toBe('none');
    }
    await shot('11-usage-phone');

    // No password, key text or session token in any line the server wrote.
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'quarry_session')?.value as string;
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(output).toContain('"url":"/console/overview"');
    for (const secret of [PASSWORD, encodeURIComponent(PASSWORD), key, key.slice(4), session]) {
      expect(output).not.toContain(secret);
    }
  });
});
