import { badRequest } from './errors.js';

/**
 * The checks of search parameters beyond their schema, shared by the searches and by saved
 * searches (which must refuse a query exactly as its search would).
 */

/** 400 when budget_min is above budget_max (GET /v1/jobs). */
export function checkBudget(query: { budget_min?: number | undefined; budget_max?: number | undefined }): void {
  if (query.budget_min !== undefined && query.budget_max !== undefined && query.budget_min > query.budget_max) {
    throw badRequest(
      'conflicting_parameters',
      'budget_min',
      `budget_min (${query.budget_min}) is greater than budget_max (${query.budget_max}).`,
      'Swap the two values, or drop one of them.',
      ['budget_min', 'budget_max'],
    );
  }
}
