/**
 * An axe-core scan (node_modules/axe-core, injected into the page; the page needs the studio
 * started with `bypassCSP`) for the browser tests: the serious and critical violations, one
 * line each with the elements they hit.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { REPO } from '../e2e/browser';

const AXE = join(REPO, 'node_modules', 'axe-core', 'axe.min.js');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/** The serious and critical violations of an axe scan of the page, one line each. */
export async function scan(p: Page): Promise<string[]> {
  if ((await p.evaluate('typeof axe')) === 'undefined') await p.addScriptTag({ path: AXE });
  // Strings keep the evaluated code free of types the Node tsconfig lacks (no DOM lib).
  const violations = (await p.evaluate(
    "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)",
  )) as Violation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map(
        (n) =>
          `${v.impact} ${v.id} (${v.help}) at ${JSON.stringify(n.target)}: ${n.failureSummary ?? ''}`,
      ),
    );
}
