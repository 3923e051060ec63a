/**
 * docs/performance.md, as `npm run bench` (re)writes it: one section per benchmark, holding what
 * that benchmark printed (its figures beside the anchors it chases) and when and where it ran.
 * A run rewrites the sections of the benchmarks it ran and keeps the others, and everything
 * outside the section markers (the page's introduction, figures recorded by hand).
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';

const begin = (name: string): string => `<!-- bench:${name} -->`;
const end = (name: string): string => `<!-- /bench:${name} -->`;

/** What one benchmark run printed, and the machine it ran on. */
export interface BenchSection {
  readonly name: string;
  /** Its console output, tables as printed. */
  readonly output: string;
  /** ISO date-time of the run. */
  readonly date: string;
  /** One line about the machine: CPU model, cores, Node version, helper threads. */
  readonly machine: string;
}

/** A printed line that is a markdown image, `![alt](path)`: shown as the image, not as text. */
const IMAGE = /^!\[[^\]\n]*\]\([^)\s]+\)$/;

/**
 * The markdown of one section, between its markers: the output as a text block, interrupted
 * by the image lines it printed (a benchmark's plots), which stand as markdown between blocks.
 */
export function renderSection(s: BenchSection): string {
  const body = s.output.replace(/\s+$/, '').replace(/```/g, "'''");
  const parts: string[] = [];
  let text: string[] = [];
  const flush = (): void => {
    while (text.length && text[text.length - 1]!.trim() === '') text.pop();
    if (text.length) parts.push('```text', ...text, '```');
    text = [];
  };
  for (const line of body.split('\n')) {
    if (IMAGE.test(line)) {
      flush();
      parts.push('', line, '');
    } else if (text.length || line.trim() !== '' || !parts.length) text.push(line);
  }
  flush();
  return [
    begin(s.name),
    `## ${s.name}`,
    '',
    `\`npm run bench -- ${s.name}\`, ${s.date}, ${s.machine}.`,
    '',
    ...parts,
    end(s.name),
  ].join('\n');
}

/**
 * `doc` with the section of `s.name` replaced by `s` (or added before the hand-written tail,
 * marked by `<!-- bench:end -->`, or at the end when there is none). Sections of other
 * benchmarks and text outside the markers are kept byte for byte.
 */
export function mergeSection(doc: string, s: BenchSection): string {
  const section = renderSection(s);
  const b = doc.indexOf(begin(s.name));
  if (b >= 0) {
    const e = doc.indexOf(end(s.name), b);
    if (e < 0) throw new Error(`docs/performance.md: ${begin(s.name)} has no ${end(s.name)}`);
    return doc.slice(0, b) + section + doc.slice(e + end(s.name).length);
  }
  const tail = doc.indexOf('<!-- bench:end -->');
  if (tail >= 0) return `${doc.slice(0, tail)}${section}\n\n${doc.slice(tail)}`;
  return `${doc.replace(/\s*$/, '')}\n\n${section}\n`;
}

/** The machine line of a section. */
export function machineLine(helpers: number): string {
  const cpu = cpus();
  return `${cpu[0]?.model.trim() ?? 'unknown CPU'} (${cpu.length} logical cores), Node ${process.version}, ${helpers} helper thread(s)`;
}

/** Rewrites the sections in `path` (atomically: a temporary file renamed over it). */
export function writeSections(path: string, sections: readonly BenchSection[]): void {
  let doc = readFileSync(path, 'utf8');
  for (const s of sections) doc = mergeSection(doc, s);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, doc);
  renameSync(tmp, path);
}

/**
 * Runs `f` with console.log also copied into a buffer (the benchmark still prints as it goes);
 * returns what it printed.
 */
export async function captured(f: () => Promise<void>): Promise<string> {
  const lines: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => {
    lines.push(args.map((a) => (typeof a === 'string' ? a : String(a))).join(' '));
    log(...args);
  };
  try {
    await f();
  } finally {
    console.log = log;
  }
  return lines.join('\n');
}
