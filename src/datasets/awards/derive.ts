// Award amounts and dates: exact decimals kept as text, fiscal years of the US federal calendar.

const AMOUNT = /^(-)?([0-9]{1,24})(?:\.([0-9]{1,6}))?$/;
const MAX_SAFE_MICROS = BigInt(Number.MAX_SAFE_INTEGER);

export function isAmount(text: string): boolean {
  return AMOUNT.test(text);
}

/**
 * Text whose byte order is the numeric order of nonnegative amounts: 24 integer digits, a point and six
 * decimals. A negative amount is its text after a '-', which sorts before every nonnegative key.
 */
export function amountKey(text: string): string {
  const match = AMOUNT.exec(text);
  if (!match) throw new Error(`not a decimal amount: ${text}`);
  const [, minus, whole = '0', fraction = ''] = match;
  const key = `${whole.padStart(24, '0')}.${fraction.padEnd(6, '0')}`;
  return minus ? `-${key}` : key;
}

/** The amount in millionths as a number, when it fits exactly; otherwise null. */
export function amountMicros(text: string): number | null {
  const match = AMOUNT.exec(text);
  if (!match) throw new Error(`not a decimal amount: ${text}`);
  const [, minus, whole = '0', fraction = ''] = match;
  const micros = BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
  if (micros > MAX_SAFE_MICROS) return null;
  return Number(minus ? -micros : micros);
}

/** Millionths back to decimal text with two to six decimals: 1234500000 -> "1234.50". */
export function formatMicros(micros: number | bigint): string {
  const value = BigInt(micros);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / 1_000_000n;
  let fraction = (abs % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  if (fraction.length < 2) fraction = fraction.padEnd(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** US federal fiscal year: October to September, named for the year it ends in. */
export function fiscalYear(date: string): number {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  return month >= 10 ? year + 1 : year;
}

/**
 * The number of the award's own id that its amount repeats, if it does: an amount of whole units whose digits
 * are one of the id's all-digit parts of five digits or more (a FAIN, an order number), sign and leading
 * zeros aside.
 * Such an amount is most likely the id keyed into the amount field.
 */
export function amountEchoingId(amount: string, sourceAwardId: string): string | null {
  const match = AMOUNT.exec(amount);
  if (!match || /[1-9]/.test(match[3] ?? '')) return null;
  const whole = (match[2] ?? '').replace(/^0+/, '');
  if (whole.length < 5 || !sourceAwardId.includes(whole)) return null;
  for (const part of sourceAwardId.split(/[^0-9A-Za-z]+/)) {
    if (/^[0-9]{5,}$/.test(part) && part.replace(/^0+/, '') === whole) return part;
  }
  return null;
}
