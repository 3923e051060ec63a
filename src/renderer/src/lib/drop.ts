/** What a file dropped on the window opens: its path, or a hint when the host cannot tell it. */
import { pathForFile } from './api';

export type Dropped = { path: string } | { hint: string } | null;

export function dropped(event: DragEvent): Dropped {
  const file = event.dataTransfer?.files[0];
  if (!file) return null;
  const path = pathForFile(file);
  return path
    ? { path }
    : { hint: `A browser does not tell the app where ${file.name} is: type its path below.` };
}
