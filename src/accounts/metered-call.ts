// A priced call's metering, the same for every transport: credits or units are taken before the call runs,
// given back when it fails on our side, and the figures are kept for the transport to report (the HTTP
// headers, the MCP result's _meta). The only caller of the charge and refund verbs of metering.ts.
import type { Deps } from '../kernel/deps.js';
import { andThen, type MaybePromise } from '../kernel/steps.js';
import type { Principal } from './keys.js';
import {
  type CreditCall,
  type CreditReceipt,
  CreditRefusal,
  chargeCredits,
  chargeUnits,
  creditBalance,
  type RateWindow,
  refundCredits,
  refundUnits,
  type UnitsReceipt,
} from './metering.js';

export class MeteredCall {
  private credits: { call: CreditCall; receipt: CreditReceipt } | null = null;
  /** The credits taken, until given back. */
  receipt: CreditReceipt | null = null;
  /** Whether the credits were settled: charged (or the call was free) rather than refused or never asked. */
  creditsSettled = false;
  /** The units counted, until given back. */
  units: UnitsReceipt | null = null;
  /** What the caller's credits stand at: after the charge, its refusal, a refund or a read of the balance. */
  balance: number | null = null;
  rate: RateWindow | null = null;
  /** What a failed call was given back. */
  refunded = { credits: 0, units: 0 };

  constructor(
    private readonly deps: Deps,
    readonly principal: Principal,
  ) {}

  /** Takes a dataset call's credits; a refusal (429, 402) keeps the standing it reports, then throws. */
  chargeCredits(call: Omit<CreditCall, 'principal'>): MaybePromise<void> {
    const priced: CreditCall = { ...call, principal: this.principal };
    const refused = (error: unknown): never => {
      if (error instanceof CreditRefusal) {
        this.rate = error.standing.rate;
        this.balance = error.standing.balance;
      }
      throw error;
    };
    try {
      const kept = andThen(chargeCredits(this.deps, priced), (receipt) => {
        this.creditsSettled = true;
        if (!receipt) return;
        this.credits = { call: priced, receipt };
        this.receipt = receipt;
        this.balance = receipt.balance;
        this.rate = receipt.rate;
      });
      return kept instanceof Promise ? kept.catch(refused) : kept;
    } catch (error) {
      return refused(error);
    }
  }

  /** Counts a market call's units against its key's minute and day; 429 having counted nothing. */
  async chargeUnits(units: number, door: string): Promise<void> {
    this.units = await chargeUnits(this.deps, this.principal, units, door);
  }

  /**
   * Settles the call: one that failed on our side gets its credits and units back; with `balance`, a balance
   * no charge told is read. Never throws: a failure to settle goes to `onError`. A charged success settles
   * without waiting.
   */
  settle(
    outcome: { failed: boolean; balance: boolean },
    onError: (error: unknown) => void,
  ): MaybePromise<void> {
    const refundingCredits = outcome.failed && this.credits !== null;
    const refundingUnits = outcome.failed && this.units !== null;
    const reading = outcome.balance && this.balance === null;
    if (!refundingCredits && !refundingUnits && !reading) return;
    return this.reconcile(refundingCredits, refundingUnits, outcome.balance).catch(onError);
  }

  private async reconcile(credits: boolean, units: boolean, balance: boolean): Promise<void> {
    if (units && this.units) {
      const given = this.units;
      this.units = null;
      await refundUnits(this.deps, this.principal, given);
      this.refunded.units = given.units;
    }
    if (credits && this.credits) {
      const { call, receipt } = this.credits;
      this.credits = null;
      this.receipt = null;
      const after = await refundCredits(this.deps, call, receipt);
      this.refunded.credits = receipt.cost;
      if (after !== null) this.balance = after;
    }
    if (balance && this.balance === null) this.balance = await creditBalance(this.deps, this.principal);
  }
}
