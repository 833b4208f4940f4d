// An award's sector: the two-digit sector of its NAICS code (the US industry classification), as the NAICS
// manual names it. Awards without a NAICS code have no sector.

const NAICS_SECTORS: Record<string, string> = {
  '11': 'Agriculture, Forestry, Fishing and Hunting',
  '21': 'Mining, Quarrying, and Oil and Gas Extraction',
  '22': 'Utilities',
  '23': 'Construction',
  '31': 'Manufacturing',
  '32': 'Manufacturing',
  '33': 'Manufacturing',
  '42': 'Wholesale Trade',
  '44': 'Retail Trade',
  '45': 'Retail Trade',
  '48': 'Transportation and Warehousing',
  '49': 'Transportation and Warehousing',
  '51': 'Information',
  '52': 'Finance and Insurance',
  '53': 'Real Estate and Rental and Leasing',
  '54': 'Professional, Scientific, and Technical Services',
  '55': 'Management of Companies and Enterprises',
  '56': 'Administrative and Support and Waste Management and Remediation Services',
  '61': 'Educational Services',
  '62': 'Health Care and Social Assistance',
  '71': 'Arts, Entertainment, and Recreation',
  '72': 'Accommodation and Food Services',
  '81': 'Other Services (except Public Administration)',
  '92': 'Public Administration',
};

/** "541712" → "Professional, Scientific, and Technical Services"; null for no code or an unknown sector. */
export function naicsSector(code: unknown): string | null {
  const text = typeof code === 'object' && code !== null ? (code as { code?: unknown }).code : code;
  const digits = typeof text === 'string' || typeof text === 'number' ? String(text).trim() : '';
  return /^\d{2,6}$/.test(digits) ? (NAICS_SECTORS[digits.slice(0, 2)] ?? null) : null;
}
