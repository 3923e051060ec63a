import { describe, expect, it } from 'vitest';
import { mergeSection, renderSection } from './report';

const section = (name: string, output: string) => ({
  name,
  output,
  date: '2026-12-01T00:00:00Z',
  machine: 'test CPU',
});

describe('bench report (docs/performance.md)', () => {
  const intro = '# Performance\n\nIntro.\n\n<!-- bench:end -->\n\n## Recorded by hand\n\nOld.\n';

  it('adds a new section before the hand-written tail', () => {
    const doc = mergeSection(intro, section('fft', 'n  ours  numpy\n8  1.0  2.0'));
    expect(doc.startsWith('# Performance\n\nIntro.\n\n<!-- bench:fft -->\n## fft')).toBe(true);
    expect(doc).toContain('```text\nn  ours  numpy\n8  1.0  2.0\n```\n<!-- /bench:fft -->');
    expect(doc.endsWith('<!-- bench:end -->\n\n## Recorded by hand\n\nOld.\n')).toBe(true);
  });

  it('replaces only the section of the benchmark that ran', () => {
    let doc = mergeSection(intro, section('fft', 'first'));
    doc = mergeSection(doc, section('kmeans', 'km'));
    const again = mergeSection(doc, section('fft', 'second'));
    expect(again).not.toContain('first');
    expect(again).toContain('second');
    expect(again).toContain(renderSection(section('kmeans', 'km')));
    expect(again.indexOf('bench:fft')).toBeLessThan(again.indexOf('bench:kmeans'));
    expect(again.length - doc.length).toBe('second'.length - 'first'.length);
  });

  it('refuses a section whose end marker is missing', () => {
    expect(() => mergeSection('<!-- bench:fft -->\n## fft', section('fft', 'x'))).toThrow(
      /has no <!-- \/bench:fft -->/,
    );
  });

  it('shows printed image lines as markdown images between text blocks', () => {
    const out = 'gemm table\n![gemm](perf/numerics-gemm.svg)\n\neig table\n![eig](perf/e.svg)';
    const md = renderSection(section('numerics', out));
    expect(md).toContain(
      '```text\ngemm table\n```\n\n![gemm](perf/numerics-gemm.svg)\n\n```text\neig table\n```\n\n![eig](perf/e.svg)\n\n<!-- /bench:numerics -->',
    );
    // Not an image line: text around it, or a path with a space, stays in the block.
    const inline = renderSection(section('a', 'see ![x](y.svg)\n![x](a b.svg)'));
    expect(inline).toContain('```text\nsee ![x](y.svg)\n![x](a b.svg)\n```');
  });

  it('keeps printed code fences from closing the block', () => {
    expect(renderSection(section('a', '```x```'))).toContain("'''x'''");
  });
});
