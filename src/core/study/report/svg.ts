/**
 * The small pieces every hand-written SVG shares (the study charts here and the benchmark plots
 * in test/bench/plot.ts): XML escaping, pixel rounding, the series palette and a document frame.
 */

/** Text escaped for XML character data and attribute values (SVG, XHTML-compatible HTML). */
export function escapeXml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** A pixel coordinate rounded to 0.1 px, as printed in attributes. */
export const px = (v: number): string => String(Math.round(v * 10) / 10);

/** Series colours, in order (colour-blind-safe Okabe–Ito hues first). */
export const PALETTE = [
  '#1f5fbf',
  '#c0392b',
  '#2e8b57',
  '#8e44ad',
  '#e69f00',
  '#56b4e9',
  '#009e73',
  '#cc79a7',
  '#555555',
  '#8c564b',
];

/** The opening of an SVG document of the given size with a white background and a title. */
export function svgOpen(width: number, height: number, title: string): string[] {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${px(width)}" height="${px(height)}" viewBox="0 0 ${px(width)} ${px(height)}" font-family="sans-serif" font-size="11" role="img">`,
    `<title>${escapeXml(title)}</title>`,
    `<rect width="${px(width)}" height="${px(height)}" fill="#fff"/>`,
    `<text x="${px(width / 2)}" y="16" text-anchor="middle" font-size="13">${escapeXml(title)}</text>`,
  ];
}
