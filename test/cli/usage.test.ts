/** `mvstudio <command> --help` / `-h`: each command's own usage on stdout, exit 0. */
import { describe, expect, it } from 'vitest';
import { COMMAND_USAGE } from '../../src/cli/usage';
import { DEFAULT_SEED } from '../../src/shared/defaults';
import { mvstudio } from '../helpers/mvstudio';

describe('mvstudio <command> --help', () => {
  it.each(Object.keys(COMMAND_USAGE).map((c, i) => [c, i % 2 ? '-h' : '--help']))(
    '%s %s prints its usage, exit 0',
    (command, flag) => {
      const r = mvstudio(command, flag);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(COMMAND_USAGE[command] + '\n');
      expect(r.stdout.startsWith(`usage: mvstudio ${command}`)).toBe(true);
    },
  );

  it('help wins over the other arguments: run bsv file --help solves nothing', () => {
    const r = mvstudio('run', 'bsv', 'no-such-file.mat', '--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^usage: mvstudio run <method> <dataset>/);
    expect(r.stdout).toContain('<view1.csv> <view2.csv>');
    expect(r.stdout).toContain(`--seed n               the first seed (default ${DEFAULT_SEED})`);
  });

  it('the overview names every command and how to get its help', () => {
    const r = mvstudio('help');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('mvstudio <command> --help');
    for (const command of Object.keys(COMMAND_USAGE)) expect(r.stdout).toContain(`  ${command} `);
  });
});
