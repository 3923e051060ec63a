/**
 * Bounds every host applies to what a caller may ask for, declared once so that the CLI, the
 * job manager and the protocol refuse the same requests with the same numbers.
 */

/** Most seeds one paper-protocol run may ask for (the papers use 20). */
export const MAX_SEEDS = 1000;

/**
 * Largest n·d_v one densified view may hold (2e8 doubles = 1.6 GB): the bound every method that
 * densifies a view applies, so that the same file is refused with the same number.
 */
export const MAX_VIEW_VALUES = 2e8;
