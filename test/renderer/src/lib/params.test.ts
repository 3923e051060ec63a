/**
 * The form's checks say exactly what the worker's validator says, for every parameter of
 * every registered solver: the renderer cannot import core, so this test holds the two side
 * by side.
 */
import { describe, expect, it } from 'vitest';
import { methodInfos } from '../../../../src/backend/runs';
import { DECIMAL_NUMBER, validateParams } from '../../../../src/core/solvers/params';
import { listSolvers } from '../../../../src/core/solvers/registry';
import { checkInteger, checkParam, initialValue } from '../../../../src/renderer/src/lib/params';

/** Values around each bound and a few malformed ones, as a user would type them. */
function samples(spec: { type: string; min?: number; max?: number }): string[] {
  if (spec.type !== 'int' && spec.type !== 'number') return [];
  const { min = 0, max = 1 } = spec;
  return [
    String(min),
    String(min - 1),
    String(max),
    String(max + 1),
    '1.5',
    'abc',
    '',
    '0x10',
    ' 5 ',
    '+5',
    '1e999',
    String((min + max) / 2),
  ];
}

describe('parameter form checks', () => {
  it('accept the defaults of every solver', () => {
    for (const m of methodInfos()) {
      for (const p of m.params)
        expect(checkParam(p, initialValue(p)), `${m.name}.${p.name}`).toEqual({
          ok: true,
          value: p.spec.default,
        });
    }
  });

  it('agree with the worker’s validator, message for message', () => {
    let compared = 0;
    for (const solver of listSolvers()) {
      const info = methodInfos([solver])[0]!;
      for (const p of info.params) {
        for (const text of samples(p.spec)) {
          const form = checkParam(p, text);
          let worker: { ok: true; value: unknown } | { ok: false; message: string };
          const x = DECIMAL_NUMBER.test(text) ? Number(text) : NaN;
          try {
            // The form sends numbers; a text that is not one reaches the validator as text.
            const raw = Number.isFinite(x) ? x : text;
            worker = { ok: true, value: validateParams(solver.schema, { [p.name]: raw })[p.name] };
          } catch (e) {
            worker = { ok: false, message: (e as Error).message };
          }
          expect(form, `${solver.name}.${p.name} = '${text}'`).toEqual(worker);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(0);
  });

  it('checks the seed, seeds and k with their names', () => {
    expect(checkInteger('the seed', '-1', 0)).toEqual({
      ok: false,
      message: 'the seed must be a whole number from 0; got "-1"',
    });
    expect(checkInteger('the number of seeds', '1001', 1, 1000)).toEqual({
      ok: false,
      message: 'the number of seeds must be a whole number from 1 to 1000; got "1001"',
    });
    expect(checkInteger('k', '7', 1)).toEqual({ ok: true, value: 7 });
    expect(checkInteger('k', ' 7 ', 1)).toEqual({
      ok: false,
      message: 'k must be a whole number from 1; got " 7 "',
    });
    expect(checkInteger('k', '0x10', 1).ok).toBe(false);
  });
});
