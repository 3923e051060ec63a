/**
 * The batch script of a Slurm job array and the text helpers around it: shell quoting, index
 * lists in `--array` syntax, per-task file names. Pure (no IO), so it is tested without Slurm.
 *
 * One script serves every submission of an array: task `i` runs `tasks[i]`, whatever job the
 * index was (re)submitted in, so a resubmission is the same script with `--array=<those indices>`.
 */

/** `s` as one bash word: single-quoted, each `'` written as `'\''`. Newlines stay literal. */
export function shellQuote(s: string): string {
  if (s.includes('\0'))
    throw new Error(`an argument holds a NUL byte, which no argv can carry: ${JSON.stringify(s)}`);
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** Sorted distinct indices as `--array` ranges: [0, 1, 2, 5, 7, 8] → "0-2,5,7-8". */
export function arrayRanges(indices: readonly number[]): string {
  const sorted = [...new Set(indices)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/**
 * The indices of an `ArrayTaskId` or `--array` text: "0-3", "1,4-6", "0-9:3" (step), with an
 * optional "%N" throttle and brackets as squeue/sacct print pending ranges ("[2-3]").
 */
export function parseRanges(text: string): number[] {
  const body = text.replace(/^\[|\]$/g, '').replace(/%\d+$/, '');
  const out: number[] = [];
  for (const part of body.split(',')) {
    const m = /^(\d+)(?:-(\d+)(?::(\d+))?)?$/.exec(part.trim());
    if (!m) throw new Error(`not an array index list: ${JSON.stringify(text)}`);
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    const step = m[3] === undefined ? 1 : Number(m[3]);
    for (let i = lo; i <= hi; i += step) out.push(i);
  }
  return out;
}

/** `path` as a Slurm `--output` pattern: `%` is a pattern character, `\` turns patterns off. */
export function slurmPathPattern(path: string): string {
  if (path.includes('\\')) {
    throw new Error(
      `a Slurm log folder may not contain a backslash (Slurm reads it as an escape): ${path}`,
    );
  }
  return path.replaceAll('%', '%%');
}

/** The marker task `index` writes when its command returns: `<rc> <array job id>\n`. */
export const exitMarkerName = (index: number): string => `${index}.exit`;

/**
 * The bash batch script: task `i` = `$SLURM_ARRAY_TASK_ID` + the script's first argument (an
 * offset, since Slurm's array ids stay below its MaxArraySize), its output and errors in
 * `<logDir>/<i>.out` and `<i>.err`; it runs argv `i`, writes the exit marker atomically (temp +
 * rename in `logDir`) and exits with the command's status, so Slurm and the marker agree. A task
 * killed by a signal (scancel, time limit) writes no marker. Slurm signals the command and this
 * shell one after the other, in either order: the shell traps TERM, INT and HUP (the trap runs once
 * the command has ended) and, when the command's status says a signal (above 128), waits a second
 * for its own before writing, so a cancelled task writes no marker whichever was signalled first;
 * a command that exits above 128 by itself still gets its marker, a second later.
 */
export function batchScript(tasks: readonly (readonly string[])[], logDir: string): string {
  if (tasks.length === 0) throw new Error('a job array needs at least one task');
  const cases = tasks.map((argv, i) => {
    if (argv.length === 0) throw new Error(`task ${i} has an empty argv`);
    return `  ${i}) argv=(${argv.map(shellQuote).join(' ')}) ;;`;
  });
  return [
    '#!/bin/bash',
    '# A job array written by Multiview Studio: task i runs argv i.',
    'set -u',
    `log=${shellQuote(logDir)}`,
    'id=${SLURM_ARRAY_TASK_ID:?this script runs as a Slurm array task}',
    'i=$((id + ${1:-0}))',
    'case "$i" in',
    ...cases,
    `  *) echo "no task $i in this array (0-${tasks.length - 1})" >&2; exit 2 ;;`,
    'esac',
    'exec >"$log/$i.out" 2>"$log/$i.err"',
    'signalled=0',
    "trap 'signalled=1' TERM INT HUP",
    '"${argv[@]}"',
    'rc=$?',
    'if [ "$rc" -gt 128 ] && [ "$signalled" = 0 ]; then sleep 1; fi',
    'if [ "$signalled" = 1 ]; then exit "$rc"; fi',
    'tmp="$log/.$i.exit.$$"',
    'printf \'%s %s\\n\' "$rc" "${SLURM_ARRAY_JOB_ID:-}" >"$tmp" && mv -f "$tmp" "$log/$i.exit"',
    'exit "$rc"',
    '',
  ].join('\n');
}
