/**
 * Parameter validation against a solver's schema (STYLE.md rule 7): the one place where raw
 * values from the CLI, the worker or a form become typed parameters. Messages name the
 * parameter, the value and what was expected, so every host can show them as they are.
 */
import type { ParamSchema, ParamSpec, ParamValue, Params } from './types';

/**
 * A dataset or parameter combination a solver cannot run on (m < k, a view without samples,
 * a sample in no view, ...): bad input, which every host reports as such (the CLI exits 2, the
 * worker fails the run with the message). The message names the method and the problem.
 */
export class SolverInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SolverInputError';
  }
}

export class ParamError extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
    this.name = 'ParamError';
  }
}

/** Largest value a penalty weight may take (`penaltyWeight`). */
export const MAX_WEIGHT = 1e6;

/**
 * The spec of a penalty weight (λ, ρ, …): a number from 0 to MAX_WEIGHT, the one range every
 * method's weights share.
 */
export function penaltyWeight<const D extends number>(
  defaultValue: D,
  doc: string,
): {
  readonly type: 'number';
  readonly min: 0;
  readonly max: number;
  readonly default: D;
  readonly doc: string;
} {
  return { type: 'number', min: 0, max: MAX_WEIGHT, default: defaultValue, doc };
}

/** The expected values of a parameter, in words: 'an integer from 1 to 100'. */
export function describeSpec(spec: ParamSpec): string {
  switch (spec.type) {
    case 'int':
      return `an integer from ${spec.min} to ${spec.max}`;
    case 'number':
      return spec.exclusiveMin
        ? `a number above ${spec.min}, at most ${spec.max}`
        : `a number from ${spec.min} to ${spec.max}`;
    case 'boolean':
      return 'true or false';
    case 'enum':
      return `one of ${spec.values.map((v) => `'${v}'`).join(', ')}`;
    case 'numbers':
      return (
        'a comma-separated list of numbers, one per view, each ' +
        (spec.exclusiveMin ? `above ${spec.min}` : `from ${spec.min}`) +
        ` to ${spec.max} (empty: the default rule)`
      );
  }
}

/** A plain decimal integer: an optional '-', then digits (no sign '+', spaces, hex or exponent). */
export const DECIMAL_INTEGER = /^-?[0-9]+$/;
/** A plain decimal number: an integer part and/or a fraction, an optional exponent ('1e-6'). */
export const DECIMAL_NUMBER = /^-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/;

/**
 * Parses a string (CLI flag, form text) into the parameter's type, or returns the value
 * unchanged. Only plain decimal text is a number: Number() would also read '0x10' as 16 and
 * ' 5 ' as 5, so anything else becomes NaN and is refused with the parameter's bounds.
 */
function coerce(spec: ParamSpec, raw: ParamValue): ParamValue {
  if (typeof raw !== 'string') return raw;
  switch (spec.type) {
    case 'int':
      return DECIMAL_INTEGER.test(raw) ? Number(raw) : NaN;
    case 'number':
      return DECIMAL_NUMBER.test(raw) ? Number(raw) : NaN;
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : raw;
    case 'enum':
      return raw;
    case 'numbers':
      if (raw.trim() === '') return null;
      return raw.split(',').map((t) => (DECIMAL_NUMBER.test(t.trim()) ? Number(t.trim()) : NaN));
  }
}

function check(name: string, spec: ParamSpec, value: ParamValue, given: ParamValue): ParamValue {
  const bad = (): never => {
    throw new ParamError(
      name,
      `parameter '${name}' must be ${describeSpec(spec)}; got ${JSON.stringify(given)}`,
    );
  };
  switch (spec.type) {
    case 'int':
      if (typeof value !== 'number' || !Number.isInteger(value)) bad();
      if ((value as number) < spec.min || (value as number) > spec.max) bad();
      return value;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) bad();
      if ((value as number) > spec.max) bad();
      if (spec.exclusiveMin ? (value as number) <= spec.min : (value as number) < spec.min) bad();
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') bad();
      return value;
    case 'enum':
      if (typeof value !== 'string' || !spec.values.includes(value)) bad();
      return value;
    case 'numbers': {
      if (value === null) return null;
      if (!Array.isArray(value) || value.length === 0) bad();
      for (const x of value as readonly unknown[]) {
        if (typeof x !== 'number' || !Number.isFinite(x) || x > spec.max) bad();
        if (spec.exclusiveMin ? (x as number) <= spec.min : (x as number) < spec.min) bad();
      }
      return Object.freeze([...(value as readonly number[])]);
    }
  }
}

/**
 * Validates `raw` against `schema`: unknown names are refused (naming the known ones), missing
 * ones take their defaults, strings are parsed (CLI), every value is checked against its bounds.
 */
export function validateParams(
  schema: ParamSchema,
  raw: Readonly<Record<string, ParamValue>>,
): Params {
  for (const name of Object.keys(raw)) {
    if (!Object.hasOwn(schema, name)) {
      const known = Object.keys(schema);
      throw new ParamError(
        name,
        `unknown parameter '${name}'` +
          (known.length ? `; parameters: ${known.join(', ')}` : '; this method takes none'),
      );
    }
  }
  const out: Record<string, ParamValue> = {};
  for (const [name, spec] of Object.entries(schema)) {
    const given = raw[name];
    out[name] = given === undefined ? spec.default : check(name, spec, coerce(spec, given), given);
  }
  return out;
}
