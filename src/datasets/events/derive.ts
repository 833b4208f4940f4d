// 8-K item codes: what each is called, what kind of event it reports, and whether it is material news
// (a change to the business, its control, its finances or its leadership) rather than routine.

/** The categories an item falls in. */
export type ItemKind =
  | 'earnings'
  | 'leadership'
  | 'agreement'
  | 'acquisition_or_disposal'
  | 'financing'
  | 'restructuring'
  | 'auditor'
  | 'vote'
  | 'cybersecurity'
  | 'regulation_fd'
  | 'other';

interface Item {
  /** The official title of the item (Form 8-K, General Instructions B). */
  label: string;
  kind: ItemKind;
  /**
   * Material: news a holder would act on — an agreement made or ended, a deal, results, new debt or equity,
   * restructuring or impairment, a delisting, a change of auditor or of control, a non-reliance warning, a
   * change of officers or directors, a cyber incident. Procedure and routine are not: votes, bylaws, ethics
   * codes, Regulation FD furnishings, other events, exhibits and asset-backed reporting.
   */
  material: boolean;
}

const item = (label: string, kind: ItemKind, material: boolean): Item => ({ label, kind, material });

export const ITEMS: Record<string, Item> = {
  '1.01': item('Entry into a Material Definitive Agreement', 'agreement', true),
  '1.02': item('Termination of a Material Definitive Agreement', 'agreement', true),
  '1.03': item('Bankruptcy or Receivership', 'restructuring', true),
  '1.04': item('Mine Safety - Reporting of Shutdowns and Patterns of Violations', 'other', false),
  '1.05': item('Material Cybersecurity Incidents', 'cybersecurity', true),
  '2.01': item('Completion of Acquisition or Disposition of Assets', 'acquisition_or_disposal', true),
  '2.02': item('Results of Operations and Financial Condition', 'earnings', true),
  '2.03': item(
    'Creation of a Direct Financial Obligation or an Obligation under an Off-Balance Sheet Arrangement of a Registrant',
    'financing',
    true,
  ),
  '2.04': item(
    'Triggering Events That Accelerate or Increase a Direct Financial Obligation or an Obligation under an Off-Balance Sheet Arrangement',
    'financing',
    true,
  ),
  '2.05': item('Costs Associated with Exit or Disposal Activities', 'restructuring', true),
  '2.06': item('Material Impairments', 'restructuring', true),
  '3.01': item(
    'Notice of Delisting or Failure to Satisfy a Continued Listing Rule or Standard; Transfer of Listing',
    'other',
    true,
  ),
  '3.02': item('Unregistered Sales of Equity Securities', 'financing', true),
  '3.03': item('Material Modification to Rights of Security Holders', 'financing', true),
  '4.01': item("Changes in Registrant's Certifying Accountant", 'auditor', true),
  '4.02': item(
    'Non-Reliance on Previously Issued Financial Statements or a Related Audit Report or Completed Interim Review',
    'auditor',
    true,
  ),
  '5.01': item('Changes in Control of Registrant', 'acquisition_or_disposal', true),
  '5.02': item(
    'Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers; Compensatory Arrangements of Certain Officers',
    'leadership',
    true,
  ),
  '5.03': item('Amendments to Articles of Incorporation or Bylaws; Change in Fiscal Year', 'other', false),
  '5.04': item("Temporary Suspension of Trading Under Registrant's Employee Benefit Plans", 'other', false),
  '5.05': item(
    "Amendment to Registrant's Code of Ethics, or Waiver of a Provision of the Code of Ethics",
    'other',
    false,
  ),
  '5.06': item('Change in Shell Company Status', 'other', true),
  '5.07': item('Submission of Matters to a Vote of Security Holders', 'vote', false),
  '5.08': item('Shareholder Director Nominations', 'vote', false),
  '6.01': item('ABS Informational and Computational Material', 'other', false),
  '6.02': item('Change of Servicer or Trustee', 'other', false),
  '6.03': item('Change in Credit Enhancement or Other External Support', 'other', false),
  '6.04': item('Failure to Make a Required Distribution', 'other', false),
  '6.05': item('Securities Act Updating Disclosure', 'other', false),
  '6.06': item('Static Pool', 'other', false),
  '7.01': item('Regulation FD Disclosure', 'regulation_fd', false),
  '8.01': item('Other Events', 'other', false),
  '9.01': item('Financial Statements and Exhibits', 'other', false),
};

const letters = (text: string) => text.toLowerCase().replace(/[^a-z]/g, '');
const BY_TITLE = new Map(Object.entries(ITEMS).map(([code, i]) => [letters(i.label), code]));

/**
 * The code of an item named by its title, as the SEC header's ITEM INFORMATION lines name them (their
 * punctuation differs: "…Appointment of Certain Officers: Compensatory…"); null for a title of no item.
 */
export function itemOfTitle(title: string): string | null {
  const key = letters(title);
  if (!key) return null;
  const exact = BY_TITLE.get(key);
  if (exact) return exact;
  for (const [label, code] of BY_TITLE) if (label.startsWith(key) || key.startsWith(label)) return code;
  return null;
}

export function describeItems(items: readonly string[]) {
  const known = items.map((code) => ITEMS[code]).filter((i): i is Item => i !== undefined);
  const kinds = [...new Set(known.map((i) => i.kind))];
  return {
    labels: items.map((code) => ITEMS[code]?.label ?? `Item ${code}`),
    kinds,
    material: known.some((i) => i.material),
  };
}

/** A headline from the items when the filing gives none: the first material item, else the first. */
export function headlineFor(companyName: string, form: string, items: readonly string[]): string {
  const first = items.find((code) => ITEMS[code]?.material) ?? items[0];
  const label = first ? (ITEMS[first]?.label ?? `Item ${first}`) : 'Current report';
  return `${companyName} ${form}: ${label}`;
}
