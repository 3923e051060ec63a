/**
 * What files dropped on the window open: their paths (several files dropped together are one
 * dataset, one CSV/NPY file per view), or a hint when the host cannot tell where they are.
 */
import { pathForFile } from './api';

export type Dropped = { paths: string[] } | { hint: string } | null;

export function dropped(event: DragEvent): Dropped {
  const files = [...(event.dataTransfer?.files ?? [])];
  if (files.length === 0) return null;
  const paths = files.map((f) => pathForFile(f));
  if (paths.every((p): p is string => p !== null)) return { paths };
  return {
    hint: `A browser does not tell the app where ${files[0]!.name} is: type its path below.`,
  };
}
