// 8-K item codes: what each is called, what kind of event it reports, and whether it is material news
// (a change to the business, its control, its finances or its leadership) rather than routine.

interface Item {
  label: string;
  kind: string;
  material: boolean;
}

export const ITEMS: Record<string, Item> = {
  '1.01': { label: 'Entry into a Material Definitive Agreement', kind: 'agreement', material: true },
  '1.02': { label: 'Termination of a Material Definitive Agreement', kind: 'agreement', material: true },
  '1.03': { label: 'Bankruptcy or Receivership', kind: 'distress', material: true },
  '1.04': {
    label: 'Mine Safety - Reporting of Shutdowns and Patterns of Violations',
    kind: 'regulatory',
    material: false,
  },
  '1.05': { label: 'Material Cybersecurity Incidents', kind: 'incident', material: true },
  '2.01': {
    label: 'Completion of Acquisition or Disposition of Assets',
    kind: 'transaction',
    material: true,
  },
  '2.02': { label: 'Results of Operations and Financial Condition', kind: 'earnings', material: true },
  '2.03': { label: 'Creation of a Direct Financial Obligation', kind: 'financing', material: true },
  '2.04': {
    label: 'Triggering Events That Accelerate or Increase a Direct Financial Obligation',
    kind: 'financing',
    material: true,
  },
  '2.05': {
    label: 'Costs Associated with Exit or Disposal Activities',
    kind: 'restructuring',
    material: true,
  },
  '2.06': { label: 'Material Impairments', kind: 'impairment', material: true },
  '3.01': {
    label: 'Notice of Delisting or Failure to Satisfy a Continued Listing Rule',
    kind: 'listing',
    material: true,
  },
  '3.02': { label: 'Unregistered Sales of Equity Securities', kind: 'financing', material: false },
  '3.03': {
    label: 'Material Modification to Rights of Security Holders',
    kind: 'governance',
    material: true,
  },
  '4.01': { label: "Changes in Registrant's Certifying Accountant", kind: 'audit', material: true },
  '4.02': { label: 'Non-Reliance on Previously Issued Financial Statements', kind: 'audit', material: true },
  '5.01': { label: 'Changes in Control of Registrant', kind: 'control', material: true },
  '5.02': {
    label: 'Departure or Appointment of Directors or Officers; Compensation Arrangements',
    kind: 'leadership',
    material: true,
  },
  '5.03': {
    label: 'Amendments to Articles of Incorporation or Bylaws; Change in Fiscal Year',
    kind: 'governance',
    material: false,
  },
  '5.04': {
    label: "Temporary Suspension of Trading Under Registrant's Employee Benefit Plans",
    kind: 'governance',
    material: false,
  },
  '5.05': {
    label: 'Amendments to the Code of Ethics, or Waiver of a Provision',
    kind: 'governance',
    material: false,
  },
  '5.06': { label: 'Change in Shell Company Status', kind: 'control', material: true },
  '5.07': {
    label: 'Submission of Matters to a Vote of Security Holders',
    kind: 'shareholder-vote',
    material: false,
  },
  '5.08': { label: 'Shareholder Director Nominations', kind: 'governance', material: false },
  '6.01': { label: 'ABS Informational and Computational Material', kind: 'asset-backed', material: false },
  '7.01': { label: 'Regulation FD Disclosure', kind: 'disclosure', material: false },
  '8.01': { label: 'Other Events', kind: 'other', material: false },
  '9.01': { label: 'Financial Statements and Exhibits', kind: 'exhibits', material: false },
};

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
