/**
 * The parameter form's checks, from the solver's schema as the host describes it
 * (`MethodInfo.params`). Messages are the validator's own words (core/solvers/params.ts:
 * "parameter 'x' must be <expects>; got <value>"), so the form and the worker say the same
 * thing; test/renderer/src/lib/params.test.ts holds the two side by side.
 */
import type { ParamInfo, ParamValue } from '../../../shared/contract';

/**
 * Plain decimal text, as the validator reads it (core/solvers/params.ts DECIMAL_INTEGER and
 * DECIMAL_NUMBER; the renderer cannot import core, so test/renderer/src/lib/params.test.ts checks that
 * they agree): no '0x10', no ' 5 ', no '+5'.
 */
const DECIMAL_INTEGER = /^-?[0-9]+$/;
const DECIMAL_NUMBER = /^-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/;

/** What a field holds: text for numbers and enums, a boolean for a checkbox. */
export type FieldValue = string | boolean;

export type Checked = { ok: true; value: ParamValue } | { ok: false; message: string };

/** The field's initial value: the schema's default. */
export function initialValue(p: ParamInfo): FieldValue {
  if (p.spec.type === 'boolean') return p.spec.default;
  return p.spec.default === null ? '' : String(p.spec.default);
}

/** Parses and checks one field against its spec. */
export function checkParam(p: ParamInfo, raw: FieldValue): Checked {
  const spec = p.spec;
  const fail = (given: unknown): Checked => ({
    ok: false,
    message: `parameter '${p.name}' must be ${p.expects}; got ${JSON.stringify(given)}`,
  });
  switch (spec.type) {
    case 'boolean':
      return typeof raw === 'boolean' ? { ok: true, value: raw } : fail(raw);
    case 'enum':
      return typeof raw === 'string' && spec.values.includes(raw)
        ? { ok: true, value: raw }
        : fail(raw);
    case 'int':
    case 'number': {
      const text = typeof raw === 'string' ? raw : '';
      const x = DECIMAL_NUMBER.test(text) ? Number(text) : NaN;
      if (!Number.isFinite(x)) return fail(raw);
      if (spec.type === 'int' && !Number.isInteger(x)) return fail(x);
      if (x > spec.max) return fail(x);
      const exclusive = spec.type === 'number' && spec.exclusiveMin === true;
      if (exclusive ? x <= spec.min : x < spec.min) return fail(x);
      return { ok: true, value: x };
    }
    case 'numbers': {
      const text = typeof raw === 'string' ? raw.trim() : '';
      if (text === '') return { ok: true, value: null };
      const xs = text.split(',').map((t) => (DECIMAL_NUMBER.test(t.trim()) ? Number(t) : NaN));
      const low = (x: number) => (spec.exclusiveMin === true ? x <= spec.min : x < spec.min);
      if (xs.some((x) => !Number.isFinite(x) || x > spec.max || low(x))) return fail(raw);
      return { ok: true, value: xs };
    }
  }
}

/** A whole number in [min, max] typed in a field, or a message naming the field. */
export function checkInteger(
  label: string,
  raw: string,
  min: number,
  max: number = Number.MAX_SAFE_INTEGER,
): { ok: true; value: number } | { ok: false; message: string } {
  const x = DECIMAL_INTEGER.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(x) || x < min || x > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `from ${min}` : `from ${min} to ${max}`;
    return {
      ok: false,
      message: `${label} must be a whole number ${range}; got ${JSON.stringify(raw)}`,
    };
  }
  return { ok: true, value: x };
}
