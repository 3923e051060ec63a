/**
 * Defaults every host applies, declared once so that the CLI and the app run the same request
 * the same way when the user gives nothing.
 */

/**
 * The first seed when none is given: seeds 1..20 are the paper protocol of the reference
 * comparisons (specs/imvc-cbg.md), so the same paper-protocol run gives the same numbers in the
 * CLI and in the app.
 */
export const DEFAULT_SEED = 1;
