/**
 * The views decision of the mapper: which variables of a file are its views. In order, the
 * user's choice, a usual view cell (`X`, `data`, `fea`, ...), separate variables sharing a name
 * prefix (`V1..Vk`, `msr1..msr5`), any other cell of 2-D matrices; else an error that says what
 * the file holds.
 */
import type { Decision } from '../../core/dataset';
import type { LoadOptions } from '../../shared/contract';
import { DataError } from '../errors';
import type { MatFile } from '../mat/types';
import { describe } from '../mat/types';
import { LABEL_NAMES } from './labels';
import {
  complexWarnings,
  dims2,
  isMaskName,
  isMatrix,
  refuseComplex,
  type Matrix,
  type ViewSource,
} from './matrix';

const VIEW_CONTAINERS = ['X', 'data', 'fea', 'features', 'views', 'x', 'Data', 'Fea'];
const SEPARATE_VIEW = /^(V|v|X|x|view|View|msr|fea|Fea|data)_?(\d+)$/;

/**
 * The views decision: the view candidates of a file, as the user chose (`options.views`) or as
 * inferred, the variables they came from, and the decision record.
 */
export function decideViews(
  file: MatFile,
  options: LoadOptions,
): { views: ViewSource[]; variables: string[]; decision: Decision } {
  const vars = file.variables;
  const cellViews = (name: string): ViewSource[] | null => {
    const v = vars.get(name);
    if (v?.type !== 'cell' || v.items.length === 0) return null;
    const out: ViewSource[] = [];
    v.items.forEach((item, i) => {
      if (options.views !== undefined) refuseComplex(file, `${name}{${i + 1}}`, item);
      if (item.type === 'numeric' && item.dims.length > 2) {
        throw new DataError(
          file.path,
          `${name}{${i + 1}} is a ${describe(item)} array; views must be 2-D (samples × features)`,
          { variable: name },
        );
      }
      if (isMatrix(item)) out.push({ name: `${name}{${i + 1}}`, value: item });
    });
    return out.length === v.items.length ? out : null;
  };

  if (options.views !== undefined) {
    const names = options.views
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (names.length === 1) {
      const only = names[0]!;
      const v = vars.get(only);
      if (v === undefined) {
        throw new DataError(
          file.path,
          `no variable '${only}' (variables: ${[...vars.keys()].join(', ')})`,
          { variable: only },
        );
      }
      refuseComplex(file, only, v);
      const fromCell = cellViews(only);
      if (fromCell) {
        const decision: Decision = {
          topic: 'views',
          choice: `${fromCell.length} views from cell '${only}'`,
          reason: 'chosen by the user',
          overridden: true,
        };
        return { decision, views: fromCell, variables: [only] };
      }
      if (!isMatrix(v)) {
        throw new DataError(
          file.path,
          `'${only}' is a ${describe(v)}, not a cell of views or a 2-D matrix`,
          { variable: only },
        );
      }
    }
    const views = names.map((name) => {
      const v = vars.get(name);
      if (v === undefined)
        throw new DataError(file.path, `no variable '${name}'`, { variable: name });
      refuseComplex(file, name, v);
      if (!isMatrix(v)) {
        throw new DataError(file.path, `'${name}' is a ${describe(v)}, not a 2-D matrix`, {
          variable: name,
        });
      }
      return { name, value: v };
    });
    const decision: Decision = {
      topic: 'views',
      choice: `${views.length} views: ${names.join(', ')}`,
      reason: 'chosen by the user',
      overridden: true,
    };
    return { decision, views, variables: names };
  }

  for (const name of VIEW_CONTAINERS) {
    const views = cellViews(name);
    if (views) {
      const decision: Decision = {
        topic: 'views',
        choice: `${views.length} views from cell '${name}'`,
        reason: `'${name}' is a cell of 2-D matrices, the usual view container`,
        overridden: false,
      };
      return { decision, views, variables: [name] };
    }
  }

  // Separate top-level variables V1..Vk, msr1..msr5, x1..x6, ...
  const groups = new Map<string, { name: string; index: number }[]>();
  for (const [name, v] of vars) {
    const m = SEPARATE_VIEW.exec(name);
    if (m && isMatrix(v)) {
      const key = m[1]!;
      // Appended in place: copying the group per variable was quadratic in their number.
      const group = groups.get(key);
      if (group) group.push({ name, index: Number(m[2]) });
      else groups.set(key, [{ name, index: Number(m[2]) }]);
    }
  }
  const best = [...groups.values()].sort((a, b) => b.length - a.length)[0];
  if (best && best.length >= 2) {
    best.sort((a, b) => a.index - b.index);
    const names = best.map((b) => b.name);
    const decision: Decision = {
      topic: 'views',
      choice: `${names.length} views from separate variables ${names.join(', ')}`,
      reason: 'no view cell; these variables share a name prefix and are 2-D matrices',
      overridden: false,
    };
    return {
      decision,
      views: names.map((name) => ({ name, value: vars.get(name) as Matrix })),
      variables: names,
    };
  }

  // Any other cell of 2-D matrices that is not a mask or label container.
  for (const [name] of vars) {
    if (LABEL_NAMES.includes(name) || isMaskName(name) || /^(index|ind)$/i.test(name)) continue;
    const views = cellViews(name);
    if (views && views.some((v) => Math.min(...dims2(v.value)) > 1)) {
      const decision: Decision = {
        topic: 'views',
        choice: `${views.length} views from cell '${name}'`,
        reason: `the only cell of 2-D matrices that is not a label, index or mask container`,
        overridden: false,
      };
      return { decision, views, variables: [name] };
    }
  }

  // Nothing: say what the file holds, and refuse known non-feature layouts clearly.
  for (const [name, v] of vars) {
    if (v.type === 'numeric' && v.dims.length === 3 && v.dims[0] === v.dims[1]) {
      throw new DataError(
        file.path,
        `'${name}' is a ${v.dims.join('×')} array of precomputed graphs (one ${v.dims[0]}×${v.dims[1]} ` +
          `affinity matrix per view), not feature views; Multiview Studio needs the features ` +
          `(samples × features per view)`,
        { variable: name },
      );
    }
  }
  const listing = [...vars].map(([k, v]) => `${k} (${describe(v)})`).join(', ');
  if ([...vars.keys()].some(isMaskName)) {
    throw new DataError(
      file.path,
      `this file holds only missing-view masks (${listing}), no views; open the data file and ` +
        `choose this file as its mask`,
    );
  }
  throw new DataError(
    file.path,
    `no views found: expected a cell 'X', 'data' or 'fea' of 2-D matrices, or separate ` +
      `variables such as V1..Vk; the file holds ${listing || 'no readable variable'}` +
      (file.warnings.length || complexWarnings(file).length
        ? ` (${[...file.warnings, ...complexWarnings(file)].join('; ')})`
        : ''),
  );
}
