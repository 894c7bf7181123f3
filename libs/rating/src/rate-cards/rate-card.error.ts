/** One thing wrong with a rate card: the file, the JSON path of the field, and what is wrong. */
export interface RateCardProblem {
  file: string;
  /** e.g. `warehouses[2].fees.fulfillment`; empty for the file as a whole. */
  path: string;
  message: string;
}

export function describeProblem(problem: RateCardProblem): string {
  return problem.path
    ? `${problem.file}: ${problem.path} ${problem.message}`
    : `${problem.file}: ${problem.message}`;
}

/** Rate cards that cannot be used: rating-service does not start. */
export class RateCardError extends Error {
  constructor(readonly problems: RateCardProblem[]) {
    const shown = problems.slice(0, 25).map(describeProblem);
    if (problems.length > shown.length) shown.push(`… and ${problems.length - shown.length} more`);
    super(`Invalid rate cards:\n  - ${shown.join('\n  - ')}`);
    this.name = 'RateCardError';
  }
}
