import { describe, expect, it } from 'vitest';
import { describeItems, headlineFor, ITEMS, itemOfTitle } from '../../../src/datasets/events/derive.js';

describe('8-K items', () => {
  it('an earnings release (2.02, 9.01) is material, of kinds earnings and other', () => {
    expect(describeItems(['2.02', '9.01'])).toEqual({
      labels: ['Results of Operations and Financial Condition', 'Financial Statements and Exhibits'],
      kinds: ['earnings', 'other'],
      material: true,
    });
  });

  it('a shareholder vote alone (5.07) is not material; an unknown code keeps its number', () => {
    expect(describeItems(['5.07'])).toMatchObject({ kinds: ['vote'], material: false });
    expect(describeItems(['9.99']).labels).toEqual(['Item 9.99']);
  });

  it('headlines name the first material item', () => {
    expect(headlineFor('NVIDIA Corp', '8-K', ['9.01', '5.02'])).toBe(
      'NVIDIA Corp 8-K: Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers; Compensatory Arrangements of Certain Officers',
    );
    expect(headlineFor('Apple Inc.', '8-K', ['8.01'])).toBe('Apple Inc. 8-K: Other Events');
  });

  it("the SEC header's item titles name their items, whatever their punctuation", () => {
    expect(
      itemOfTitle(
        'Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain Officers: Compensatory Arrangements of Certain Officers',
      ),
    ).toBe('5.02');
    expect(itemOfTitle('Results of Operations and Financial Condition')).toBe('2.02');
    expect(itemOfTitle('Financial Statements and Exhibits')).toBe('9.01');
    expect(itemOfTitle('Something Else Entirely')).toBeNull();
  });

  it('kinds come from the documented set', () => {
    const kinds = new Set(Object.values(ITEMS).map((i) => i.kind));
    const documented = [
      'earnings',
      'leadership',
      'agreement',
      'acquisition_or_disposal',
      'financing',
      'restructuring',
      'auditor',
      'vote',
      'cybersecurity',
      'regulation_fd',
      'other',
    ];
    expect([...kinds].every((k) => documented.includes(k))).toBe(true);
    expect(describeItems(['1.05']).kinds).toEqual(['cybersecurity']);
    expect(describeItems(['4.01']).kinds).toEqual(['auditor']);
    expect(describeItems(['7.01'])).toMatchObject({ kinds: ['regulation_fd'], material: false });
  });
});
