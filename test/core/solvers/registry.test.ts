/**
 * Contract of every registered solver: a schema whose defaults validate, and parameters that
 * are out of range or of the wrong type refused with a message naming the parameter and what
 * it accepts.
 */
import { describe, expect, it } from 'vitest';
import { getSolver, listSolvers } from '../../../src/core/solvers/registry';
import { ParamError, describeSpec, validateParams } from '../../../src/core/solvers/params';
import type { ParamSpec, ParamValue } from '../../../src/core/solvers/types';

/** Values each kind of parameter must refuse. */
function badValues(spec: ParamSpec): ParamValue[] {
  switch (spec.type) {
    case 'int':
      return [spec.min - 1, spec.max + 1, spec.min + 0.5, 'x', true];
    case 'number':
      return [spec.exclusiveMin ? spec.min : spec.min - 1, spec.max * 2 + 1, NaN, 'x', false];
    case 'boolean':
      return ['maybe', 1];
    case 'enum':
      return ['not-a-value', 3];
    case 'numbers':
      return [[spec.max * 2 + 1], [], 'x', '1,,2', 3];
  }
}

const solvers = listSolvers();

describe('solver registry', () => {
  it('holds the first solvers, and an unknown name lists them', () => {
    expect(solvers.map((s) => s.name)).toEqual(expect.arrayContaining(['kmeans-concat', 'bsv']));
    expect(() => getSolver('nope')).toThrow(/unknown method 'nope'; methods: .*kmeans-concat/);
  });

  it.each(solvers.map((s) => [s.name, s] as const))('%s: defaults validate', (_, s) => {
    const params = validateParams(s.schema, {});
    for (const [name, spec] of Object.entries(s.schema)) {
      expect(params[name]).toBe(spec.default);
      expect(spec.doc.length).toBeGreaterThan(10);
    }
  });

  it.each(solvers.map((s) => [s.name, s] as const))(
    '%s: bad values are refused naming the parameter and its bounds',
    (_, s) => {
      for (const [name, spec] of Object.entries(s.schema)) {
        for (const bad of badValues(spec)) {
          let error: unknown = null;
          try {
            validateParams(s.schema, { [name]: bad });
          } catch (e) {
            error = e;
          }
          expect(error, `${s.name}.${name} = ${String(bad)}`).toBeInstanceOf(ParamError);
          expect((error as Error).message).toContain(`'${name}'`);
          expect((error as Error).message).toContain(describeSpec(spec));
        }
      }
    },
  );
});
