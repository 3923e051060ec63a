/**
 * The critical-difference summary of a StudyTable (Demšar 2006): the Friedman test over its
 * methods × ranked columns, the Nemenyi critical difference with the groups of methods it cannot
 * tell apart, and every pair's Wilcoxon signed-rank test with Holm's step-down adjustment. As a
 * Markdown text and as the usual diagram (an axis of average ranks, best on the left, a bar over
 * each group within CD).
 */
import type { Alpha, FriedmanResult, WilcoxonResult } from './stats';
import { cdCliques, friedman, nemenyiCd, nemenyiQ, wilcoxon } from './stats';
import { escapeXml, px, svgOpen } from './svg';
import type { StudyTable } from './table';
import { columnTitle, metricName } from './table';

export interface PairTest {
  /** Row indices of the two methods. */
  readonly a: number;
  readonly b: number;
  readonly test: WilcoxonResult;
  /** Holm-adjusted p over all pairs. */
  readonly pHolm: number;
}

export interface CdSummary {
  readonly methods: readonly string[];
  /** The datasets (ranked columns) compared. */
  readonly datasets: readonly string[];
  readonly alpha: Alpha;
  /** Average rank of each method over the datasets (1 = best). */
  readonly avgRanks: readonly number[];
  /** Friedman / Iman–Davenport, Nemenyi q_α, CD and groups: null with fewer than 3 methods. */
  readonly friedman: FriedmanResult | null;
  readonly q: number | null;
  readonly cd: number | null;
  readonly cliques: readonly (readonly number[])[];
  readonly pairs: readonly PairTest[];
  /** What the summary is about: metric, rule, the table's printed values. */
  readonly title: string;
}

/** Holm's step-down adjusted p-values (monotone, capped at 1), in the input order. */
export function holm(ps: readonly number[]): number[] {
  const order = ps.map((p, i) => [p, i] as const).sort((x, y) => x[0] - y[0]);
  const out = new Array<number>(ps.length);
  let running = 0;
  order.forEach(([p, i], j) => {
    running = Math.max(running, Math.min(1, (ps.length - j) * p));
    out[i] = running;
  });
  return out;
}

/**
 * The summary of `t` over its ranked columns (those where every method has a value), using the
 * printed means the table ranks. null when fewer than 3 datasets or 2 methods remain.
 */
export function studyStatistics(t: StudyTable, alpha: Alpha = 0.05): CdSummary | null {
  const cols = t.rankedColumns;
  const k = t.rows.length;
  if (cols.length < 3 || k < 2) return null;
  const scores = cols.map((c) => t.rows.map((_, r) => t.cells[r]![c]!.value));
  const fr = k >= 3 ? friedman(scores) : null;
  const avgRanks = t.avgRank.map((v) => v!);
  const q = k >= 3 ? nemenyiQ(k, alpha) : null;
  const cd = k >= 3 ? nemenyiCd(k, cols.length, alpha) : null;
  const raw: { a: number; b: number; test: WilcoxonResult }[] = [];
  for (let a = 0; a < k; a++) {
    for (let b = a + 1; b < k; b++) {
      raw.push({
        a,
        b,
        test: wilcoxon(
          scores.map((s) => s[a]!),
          scores.map((s) => s[b]!),
        ),
      });
    }
  }
  const adjusted = holm(raw.map((p) => p.test.p));
  return {
    methods: t.rows,
    datasets: cols.map((c) => columnTitle(t, c)),
    alpha,
    avgRanks,
    friedman: fr,
    q,
    cd,
    cliques: cd === null ? [] : cdCliques(avgRanks, cd),
    pairs: raw.map((p, i) => ({ ...p, pHolm: adjusted[i]! })),
    title: `${metricName(t.metric)}, ${t.rule} selection`,
  };
}

/** A p-value as printed: 4 significant digits, or '< 1e-16'. */
export const pText = (p: number): string => (p < 1e-16 ? '< 1e-16' : p.toPrecision(4));

/** 'p = 0.01234' or 'p < 1e-16'. */
const pIs = (p: number): string => (p < 1e-16 ? 'p < 1e-16' : `p = ${pText(p)}`);

/**
 * The summary's sentences (plain text, shared by the Markdown and HTML forms): the comparison,
 * the Friedman and Iman–Davenport tests, Nemenyi's CD, its groups and the average ranks.
 */
export function summaryLines(s: CdSummary): string[] {
  const lines = [
    `${s.methods.length} methods × ${s.datasets.length} datasets (${s.datasets.join(', ')}).`,
  ];
  if (s.friedman) {
    const f = s.friedman;
    // F is infinite when every dataset ranks the methods the same way.
    const fv = Number.isFinite(f.f) ? f.f.toFixed(4) : '∞';
    lines.push(
      `Friedman χ²(${f.df1}) = ${f.chiSquare.toFixed(4)}, ${pIs(f.pChiSquare)}; Iman–Davenport F(${f.df1}, ${f.df2}) = ${fv}, ${pIs(f.pF)}.`,
      `Nemenyi at α = ${s.alpha}: q = ${s.q!.toFixed(3)}, CD = ${s.cd!.toFixed(3)}.`,
    );
    const groups = s.cliques.map((c) => `{${c.map((m) => s.methods[m]).join(', ')}}`);
    lines.push(
      groups.length
        ? `Not significantly different (within CD): ${groups.join('; ')}.`
        : 'Every pair of methods differs by more than CD.',
    );
  } else {
    lines.push('Friedman and Nemenyi need at least 3 methods; pairwise tests only.');
  }
  const order = s.avgRanks.map((r, i) => [r, i] as const).sort((a, b) => a[0] - b[0]);
  lines.push(
    `Average ranks: ${order.map(([r, i]) => `${s.methods[i]} ${r.toFixed(2)}`).join(', ')}.`,
  );
  return lines;
}

/** The summary as Markdown: the sentences of summaryLines, then the pairwise table. */
export function cdMarkdown(s: CdSummary): string {
  const lines = [
    `**Critical difference** (${s.title})`,
    '',
    ...summaryLines(s).map((l) => `- ${l}`),
    '',
    '| Pair | W | n | p (Wilcoxon) | p (Holm) | test |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const p of s.pairs) {
    const sig = p.pHolm < s.alpha ? ' *' : '';
    lines.push(
      `| ${s.methods[p.a]} vs ${s.methods[p.b]} | ${p.test.statistic} | ${p.test.n} | ${pText(p.test.p)} | ${pText(p.pHolm)}${sig} | ${p.test.method} |`,
    );
  }
  lines.push('', `\\* Holm-adjusted p below α = ${s.alpha}.`);
  return lines.join('\n') + '\n';
}

/**
 * The critical-difference diagram: an axis from rank 1 (left) to k, each method a tick at its
 * average rank joined to its name (better half on the left, worse on the right), a CD bracket
 * above the axis and a thick bar under the axis over each group within CD. One `<line
 * class="method">` per method and one `<line class="clique">` per group.
 */
export function cdSvg(s: CdSummary): string {
  const k = s.methods.length;
  const width = 560;
  const half = Math.ceil(k / 2);
  const rowH = 18;
  const axisY = 70;
  const cliqueY = axisY + 14;
  const labelsTop = cliqueY + 8 * s.cliques.length + 14;
  const height = labelsTop + half * rowH + 12;
  const [x0, x1] = [150, width - 150];
  const sx = (r: number): number => x0 + ((r - 1) / Math.max(1, k - 1)) * (x1 - x0);
  const out = svgOpen(width, height, `Critical difference: ${s.title}`);
  out.push(`<line x1="${x0}" y1="${axisY}" x2="${x1}" y2="${axisY}" stroke="#222"/>`);
  for (let r = 1; r <= k; r++) {
    const x = px(sx(r));
    out.push(
      `<line x1="${x}" y1="${axisY - 5}" x2="${x}" y2="${axisY}" stroke="#222"/>`,
      `<text x="${x}" y="${axisY - 8}" text-anchor="middle">${r}</text>`,
    );
  }
  if (s.cd !== null) {
    const y = 32;
    const xe = sx(1 + s.cd);
    out.push(
      `<line class="cd" x1="${x0}" y1="${y}" x2="${px(xe)}" y2="${y}" stroke="#c0392b" stroke-width="2"/>`,
      `<text x="${px((x0 + xe) / 2)}" y="${y - 5}" text-anchor="middle">CD = ${s.cd.toFixed(3)} (α = ${s.alpha})</text>`,
    );
  }
  s.cliques.forEach((c, i) => {
    const ranks = c.map((m) => s.avgRanks[m]!);
    const y = px(cliqueY + 8 * i);
    out.push(
      `<line class="clique" x1="${px(sx(Math.min(...ranks)) - 3)}" y1="${y}" x2="${px(sx(Math.max(...ranks)) + 3)}" y2="${y}" stroke="#222" stroke-width="4"/>`,
    );
  });
  const order = s.avgRanks.map((r, i) => [r, i] as const).sort((a, b) => a[0] - b[0]);
  order.forEach(([r, m], j) => {
    const left = j < half;
    const y = labelsTop + (left ? j : k - 1 - j) * rowH;
    const xEnd = left ? x0 - 10 : x1 + 10;
    const x = px(sx(r));
    out.push(
      `<line class="method" x1="${x}" y1="${axisY}" x2="${x}" y2="${y}" stroke="#555"/>`,
      `<line x1="${x}" y1="${y}" x2="${xEnd}" y2="${y}" stroke="#555"/>`,
      `<text x="${left ? xEnd - 4 : xEnd + 4}" y="${y}" text-anchor="${left ? 'end' : 'start'}" dominant-baseline="middle">${escapeXml(`${s.methods[m]!} (${r.toFixed(2)})`)}</text>`,
    );
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
