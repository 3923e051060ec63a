/** `main`: a failure no command anticipated ends in one line naming the command, exit 1. */
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../src/cli/info', () => ({
  runInfo: (): Promise<number> => {
    throw new Error('the method produced non-finite values');
  },
}));

const { main } = await import('../../src/cli/main');

describe('mvstudio main', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    delete process.env.MVSTUDIO_DEBUG;
  });

  it('prints the error as one line and returns 1, not a stack trace', async () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await main(['info', 'file.mat'])).toBe(1);
    const written = err.mock.calls.map((c) => String(c[0])).join('');
    expect(written).toBe('mvstudio info: the method produced non-finite values\n');
  });

  it('MVSTUDIO_DEBUG=1 adds the stack', async () => {
    process.env.MVSTUDIO_DEBUG = '1';
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(await main(['info', 'file.mat'])).toBe(1);
    const written = err.mock.calls.map((c) => String(c[0])).join('');
    expect(written).toMatch(/^mvstudio info: the method produced non-finite values\nError: /);
    expect(written).toContain('at ');
  });
});
