import { describe, expect, it } from 'vitest';
import { describeItems, headlineFor } from '../../src/datasets/events/derive.js';

describe('8-K items', () => {
  it('an earnings release (2.02, 9.01) is material, of kinds earnings and exhibits', () => {
    expect(describeItems(['2.02', '9.01'])).toEqual({
      labels: ['Results of Operations and Financial Condition', 'Financial Statements and Exhibits'],
      kinds: ['earnings', 'exhibits'],
      material: true,
    });
  });

  it('a shareholder vote alone (5.07) is not material; an unknown code keeps its number', () => {
    expect(describeItems(['5.07'])).toMatchObject({ kinds: ['shareholder-vote'], material: false });
    expect(describeItems(['9.99']).labels).toEqual(['Item 9.99']);
  });

  it('headlines name the first material item', () => {
    expect(headlineFor('NVIDIA Corp', '8-K', ['9.01', '5.02'])).toBe(
      'NVIDIA Corp 8-K: Departure or Appointment of Directors or Officers; Compensation Arrangements',
    );
    expect(headlineFor('Apple Inc.', '8-K', ['8.01'])).toBe('Apple Inc. 8-K: Other Events');
  });
});
