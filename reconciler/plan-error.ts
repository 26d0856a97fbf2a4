import { UserError } from '../lib/errors.js';

/** The plan cannot be made as asked (unknown target, a plan that empties everything…). Exit 1. */
export class PlanError extends UserError {
  constructor(message: string) {
    super(message, 1);
    this.name = 'PlanError';
  }
}
