// Child process for test/io/atomic.test.ts: writes bundles in a loop until killed.
import { writeFileAtomic, writeFolderAtomic } from '../../src/io/atomic';

const [dir, mode] = process.argv.slice(2) as [string, string];
const big = 'x'.repeat(4 << 20);
let i = 0;
process.send?.('started');
for (;;) {
  if (mode === 'file') await writeFileAtomic(`${dir}/labels.csv`, `${i}\n${big}\n${i}\n`);
  else
    await writeFolderAtomic(`${dir}/run-${i}`, {
      'run.json': `{"i":${i}}`,
      'labels.csv': `${i}\n${big}\n${i}\n`,
    });
  i++;
}
