/**
 * Bounds every host applies to what a caller may ask for, declared once so that the CLI, the
 * job manager and the protocol refuse the same requests with the same numbers.
 */

/** Most seeds one paper-protocol run may ask for (the papers use 20). */
export const MAX_SEEDS = 1000;
