/**
 * A numerical method that failed on its input (an iteration that did not converge, a
 * non-finite entry): not a bug of the caller's arguments but of the numbers, so the
 * evaluation protocol reports it as the run's input problem, naming the method.
 */
export class NumericalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NumericalError';
  }
}
