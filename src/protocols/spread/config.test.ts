import { describe, expect, it } from 'vitest';
import { budgetCells, spreadSettings } from './config.js';

describe('the spread budget', () => {
  it('is a share of the grid up to 1, a number of calls above it, never more than the grid', () => {
    expect(budgetCells(0.25, 40, 100)).toBe(1000);
    expect(budgetCells(1, 40, 100)).toBe(4000);
    expect(budgetCells(600, 40, 100)).toBe(600);
    expect(budgetCells(9000, 40, 100)).toBe(4000);
    expect(budgetCells(0.0001, 4, 4)).toBe(1);
  });
  it('refuses a fractional number of calls and a budget of 0', () => {
    expect(() => spreadSettings({ spread: { budget: 1.5 } })).toThrow(/whole number/);
    expect(() => spreadSettings({ spread: { budget: 0 } })).toThrow();
    expect(spreadSettings({}).budget).toBe(1);
  });
});

describe('the spread estimator setting', () => {
  it('defaults to the deconvolved mixed model, takes prompteval and full-grid, refuses others', () => {
    expect(spreadSettings({}).estimator).toBe('deconvolved');
    expect(spreadSettings({ spread: { estimator: 'prompteval' } }).estimator).toBe('prompteval');
    expect(spreadSettings({ spread: { estimator: 'full-grid' } }).estimator).toBe('full-grid');
    expect(() => spreadSettings({ spread: { estimator: 'mean' as 'prompteval' } })).toThrow();
  });
});
