/**
 * The study report as one self-contained HTML document: the tables, the statistics, the charts
 * as inline SVG, the spec, the versions and the dataset hashes. No scripts, no external
 * resources (a Content-Security-Policy of `default-src 'none'` says so to the browser), and
 * XHTML-compatible markup (every element closed, every attribute quoted, text escaped) so the
 * document also parses as XML.
 */
import type { CdSummary } from './cd';
import { cdSvg, pText, summaryLines } from './cd';
import { escapeXml } from './svg';
import type { StudyTable, TableCell } from './table';
import { columnTitle, metricName, rankText } from './table';

export interface HtmlChart {
  readonly title: string;
  /** An SVG document from heatmapSvg, lineSvg or cdSvg. */
  readonly svg: string;
}

export interface HtmlReportOptions {
  readonly title: string;
  readonly tables: readonly StudyTable[];
  /** Critical-difference summaries (each drawn as its diagram and listed with its tests). */
  readonly statistics?: readonly CdSummary[];
  readonly charts?: readonly HtmlChart[];
  /** The study spec, any JSON value; printed as indented JSON. */
  readonly spec: unknown;
  /** Name → version (app, node, solvers, …). */
  readonly versions: Readonly<Record<string, string>>;
  /** Dataset label → content hash. */
  readonly datasetHashes: Readonly<Record<string, string>>;
}

const STYLE = `
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.8em 0; }
th, td { padding: 0.25em 0.7em; text-align: right; border-top: 1px solid #ddd; }
th:first-child, td:first-child { text-align: left; }
thead th { border-bottom: 2px solid #444; border-top: 2px solid #444; }
tbody tr:last-child td { border-bottom: 2px solid #444; }
caption { caption-side: top; text-align: left; font-size: 0.9em; color: #444; padding-bottom: 0.4em; }
.notes { font-size: 0.85em; color: #555; }
figure { margin: 1em 0; } figcaption { font-size: 0.9em; color: #444; }
pre { background: #f6f6f6; padding: 0.8em; overflow: auto; font-size: 0.85em; }
code { font-size: 0.9em; }
`;

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

const cell = (text: string, mark: TableCell['mark']): string => {
  const t = escapeXml(text);
  return mark === 'best' ? `<strong>${t}</strong>` : mark === 'second' ? `<u>${t}</u>` : t;
};

/** One study table as an HTML `<table>` with its caption and notes. */
export function tableHtml(t: StudyTable): string {
  const head = ['Method', ...t.columns.map((_, c) => columnTitle(t, c)), 'Avg. rank'];
  const out = [
    `<table class="study">`,
    `<caption>${escapeXml(t.caption)}</caption>`,
    `<thead><tr>${head.map((h) => `<th>${escapeXml(h)}</th>`).join('')}</tr></thead>`,
    '<tbody>',
  ];
  t.rows.forEach((label, r) => {
    const tds = t.cells[r]!.map((c) => `<td>${c ? cell(c.text, c.mark) : '—'}</td>`);
    const rank = cell(rankText(t.avgRank[r] ?? null), t.avgRankMark[r] ?? null);
    out.push(`<tr><td>${escapeXml(label)}</td>${tds.join('')}<td>${rank}</td></tr>`);
  });
  out.push('</tbody>', '</table>');
  if (t.notes.length) {
    out.push(`<ul class="notes">${t.notes.map((n) => `<li>${escapeXml(n)}</li>`).join('')}</ul>`);
  }
  return out.join('\n');
}

/** An SVG for embedding: checked to be one of ours (no script), its namespace attribute dropped (HTML needs none). */
function inlineSvg(svg: string, what: string): string {
  const s = svg.trim();
  if (!s.startsWith('<svg') || !s.endsWith('</svg>') || /<script|<foreignObject|href=/i.test(s)) {
    throw new Error(`${what}: expected an SVG document from the report's chart functions`);
  }
  return s.replace(' xmlns="http://www.w3.org/2000/svg"', '');
}

function statisticsHtml(s: CdSummary): string {
  const out = [`<h3>${escapeXml(s.title)}</h3>`];
  const items = summaryLines(s);
  out.push(`<ul>${items.map((i) => `<li>${escapeXml(i)}</li>`).join('')}</ul>`);
  if (s.cd !== null) {
    out.push(`<figure>${inlineSvg(cdSvg(s), 'critical-difference diagram')}</figure>`);
  }
  out.push(
    '<table class="pairs">',
    '<thead><tr><th>Pair</th><th>W</th><th>n</th><th>p (Wilcoxon)</th><th>p (Holm)</th><th>test</th></tr></thead>',
    '<tbody>',
    ...s.pairs.map((p) => {
      const holm = p.pHolm < s.alpha ? `<strong>${pText(p.pHolm)}</strong>` : pText(p.pHolm);
      return `<tr><td>${escapeXml(`${s.methods[p.a]!} vs ${s.methods[p.b]!}`)}</td><td>${p.test.statistic}</td><td>${p.test.n}</td><td>${pText(p.test.p)}</td><td>${holm}</td><td>${p.test.method}</td></tr>`;
    }),
    '</tbody>',
    '</table>',
    `<p class="notes">Holm-adjusted p below α = ${s.alpha} in bold.</p>`,
  );
  return out.join('\n');
}

function keyValueTable(title: string, entries: Readonly<Record<string, string>>): string {
  const rows = Object.entries(entries).map(
    ([k, v]) => `<tr><td>${escapeXml(k)}</td><td><code>${escapeXml(v)}</code></td></tr>`,
  );
  return [
    `<table class="${title}">`,
    '<tbody>',
    ...(rows.length ? rows : ['<tr><td>none</td><td></td></tr>']),
    '</tbody>',
    '</table>',
  ].join('\n');
}

/** The report document (UTF-8, `<!DOCTYPE html>`). */
export function renderHtml(o: HtmlReportOptions): string {
  const body: string[] = [`<h1>${escapeXml(o.title)}</h1>`];
  body.push('<h2>Results</h2>');
  for (const t of o.tables) {
    body.push(
      `<h3>${escapeXml(`${metricName(t.metric)} (${t.rule} selection)`)}</h3>`,
      tableHtml(t),
    );
  }
  if (o.statistics?.length) {
    body.push('<h2>Statistical comparison</h2>', ...o.statistics.map(statisticsHtml));
  }
  if (o.charts?.length) {
    body.push('<h2>Charts</h2>');
    o.charts.forEach((c, i) => {
      body.push(
        `<figure>${inlineSvg(c.svg, `charts[${i}] (${c.title})`)}<figcaption>${escapeXml(c.title)}</figcaption></figure>`,
      );
    });
  }
  body.push(
    '<h2>Study spec</h2>',
    `<pre>${escapeXml(JSON.stringify(o.spec, null, 2) ?? 'null')}</pre>`,
    '<h2>Versions</h2>',
    keyValueTable('versions', o.versions),
    '<h2>Datasets</h2>',
    keyValueTable('hashes', o.datasetHashes),
  );
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8"/>',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}"/>`,
    '<meta name="viewport" content="width=device-width, initial-scale=1"/>',
    `<title>${escapeXml(o.title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    ...body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
