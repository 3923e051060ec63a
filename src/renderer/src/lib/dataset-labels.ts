/**
 * What the sidebar says under a dataset's name, so that two entries of one file (the file
 * itself, read again with overrides, made incomplete by "Make views missing") or two files of
 * the same name in different folders never look alike.
 */
import type { DatasetEntry } from '../../../shared/contract';

/** The last path segment, for display (the renderer has no node:path). */
function baseName(path: string): string {
  return path.split(/[\\/]/).pop() || path;
}

/** The folders of a path, outermost first. */
function folders(path: string): string[] {
  const parts = path.split(/[\\/]/).filter((p) => p !== '');
  return parts.slice(0, -1);
}

/**
 * The mask file name backend/missing.ts gives a generated mask: `<stem>-complete<p>-seed<s>.npz`.
 * Recognised here so that the sidebar states the protocol instead of a temporary file name.
 */
const GENERATED_MASK = /-complete(\d+)-seed(\d+)\.npz$/;

/** The mapping options an entry was read with, in words ('' when it was read as the file says). */
export function describeOptions(entry: DatasetEntry): string {
  const o = entry.options;
  const parts: string[] = [];
  if (o.mask !== undefined) {
    const generated = GENERATED_MASK.exec(baseName(o.mask));
    if (generated) {
      parts.push(`views made missing: ${generated[1]} % complete, seed ${generated[2]}`);
    } else {
      parts.push(`mask ${baseName(o.mask)}${o.fold !== undefined ? ` fold ${o.fold}` : ''}`);
    }
  }
  if (o.views !== undefined) parts.push(`views ${o.views}`);
  if (o.labels !== undefined) parts.push(`labels ${o.labels}`);
  if (o.labelsFile !== undefined) parts.push(`labels file ${baseName(o.labelsFile)}`);
  if (o.orientation !== undefined) parts.push(o.orientation);
  return parts.join(' · ');
}

/**
 * The shortest trailing run of folders that tells `path` apart from every path in `others`
 * (all of the same file name); '' when the others are all in the same folder.
 */
function distinguishingFolder(path: string, others: readonly string[]): string {
  const mine = folders(path);
  const theirs = others.map(folders).filter((f) => f.join('/') !== mine.join('/'));
  if (theirs.length === 0) return '';
  for (let depth = 1; depth <= mine.length; depth++) {
    const tail = mine.slice(-depth).join('/');
    if (theirs.every((f) => f.slice(-depth).join('/') !== tail)) return `${tail}/`;
  }
  return `${mine.join('/')}/`;
}

/**
 * The subtitle of each entry, by id: the folder when another open file has the same name, the
 * options it was read with, or "as the file says" when a same-name sibling was read otherwise.
 * Entries without a same-name sibling get only their options (often '').
 */
export function subtitles(entries: readonly DatasetEntry[]): Map<string, string> {
  const byName = new Map<string, DatasetEntry[]>();
  for (const e of entries) {
    const name = baseName(e.path);
    byName.set(name, [...(byName.get(name) ?? []), e]);
  }
  const out = new Map<string, string>();
  for (const e of entries) {
    const siblings = (byName.get(baseName(e.path)) ?? []).filter((s) => s.id !== e.id);
    const parts: string[] = [];
    const folder = distinguishingFolder(
      e.path,
      siblings.map((s) => s.path),
    );
    if (folder !== '') parts.push(`in ${folder}`);
    const options = describeOptions(e);
    if (options !== '') parts.push(options);
    else if (siblings.some((s) => s.path === e.path)) parts.push('as the file says');
    out.set(e.id, parts.join(' · '));
  }
  return out;
}
