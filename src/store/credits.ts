// The credit balance and its ledger: the one place that changes a balance on the request path.
// Every change writes its ledger row in the same transaction, so for the current period
//   balance = allowance - charged + refunded + adjusted = sum of the period's ledger amounts.

export interface ChargeInput {
  accountId: string;
  amount: number;
  /** Monthly credits of the account's plan, granted when a new calendar-month period opens. */
  allowance: number;
  requestId: string;
  keyId: string;
  operation: string;
  now: Date;
}

export interface BalanceState {
  balance: number;
  periodStart: string;
  periodEnd: string;
}

export type ChargeOutcome = ({ ok: true } & BalanceState) | ({ ok: false } & BalanceState);

export interface RefundInput {
  accountId: string;
  amount: number;
  /** The period the charge was made in; a refund never crosses into another period. */
  periodStart: string;
  requestId: string;
  keyId: string;
  operation: string;
  now: Date;
}

export interface CreditStore {
  /** Takes `amount` credits if the balance covers them; never below zero, one ledger row per charge. */
  charge(input: ChargeInput): Promise<ChargeOutcome>;
  /** Gives back a charge; null when its period has closed. */
  refund(input: RefundInput): Promise<number | null>;
  /** The current balance, opening a new period first when the last one has ended. */
  balance(accountId: string, allowance: number, now: Date): Promise<BalanceState | null>;
}

/** A charge's account row, which the same transaction read a moment before. */
export function orMissing<T>(value: T | null, accountId: string): T {
  if (value === null) throw new Error(`account ${accountId} vanished during a charge`);
  return value;
}
