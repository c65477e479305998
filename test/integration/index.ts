// The extensionTestsPath: VS Code's extension host calls run() and waits for it. Runs every
// *.test.js next to this file under mocha and prints a closing "N passed, M failed" line for CI logs.
// TOFFEE_TEST_FILES=a,b (file name stems) runs only those files, for quick local runs. A *.session.test.js file
// needs a VS Code of its own (it reloads the window, which starts the suite again) and runs only when named.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 120000, reporter: 'spec' });
  const only = (process.env.TOFFEE_TEST_FILES ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const wanted = (f: string) => (only.length === 0 ? !f.endsWith('.session.test.js') : only.includes(f.replace(/\.test\.js$/, '')));
  for (const file of fs.readdirSync(__dirname).filter((f) => f.endsWith('.test.js') && wanted(f)).sort()) {
    mocha.addFile(path.join(__dirname, file));
  }
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      console.log(`${runner.stats?.passes ?? 0} passed, ${failures} failed`);
      if (failures) reject(new Error(`${failures} integration tests failed`));
      else resolve();
    });
  });
}
