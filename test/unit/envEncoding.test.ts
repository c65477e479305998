import * as assert from 'node:assert/strict';
import { loadEnvironment, type DataEnvironment } from '../../src/core/env/index';
import { inspectTextFile } from '../../src/core/env/textEncoding';
import { makeFolder, queryImage } from '../support/envFixtures';

/** Encodes text as ISO-8859-1 / Windows-1252 bytes (one byte per character; € and “ ” mapped to 1252's). */
function singleByte(text: string): Buffer {
  const cp1252: Record<string, number> = { '€': 0x80, '‚': 0x82, '„': 0x84, '…': 0x85, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '–': 0x96, '—': 0x97, 'œ': 0x9c, 'Ÿ': 0x9f };
  return Buffer.from([...text].map((ch) => {
    if (cp1252[ch] !== undefined) return cp1252[ch];
    const code = ch.charCodeAt(0);
    if (code > 0xff) throw new Error(`not single-byte: ${ch}`);
    return code;
  }));
}

async function withFolder<T>(files: Record<string, string | Buffer>, use: (env: DataEnvironment) => Promise<T>): Promise<T> {
  const folder = makeFolder(files);
  try {
    return await use(await loadEnvironment(folder.root));
  } finally {
    folder.cleanup();
  }
}

describe('env: text encodings', function () {
  this.timeout(60_000);

  it('reads a CSV with one latin-1 row in 2,000 with the right characters and says so in the profile', async () => {
    const rows = ['id,name,city'];
    for (let i = 1; i <= 2000; i++) rows.push(i === 1999 ? `${i},José Müller,Zürich` : `${i},Person ${i},Springfield`);
    await withFolder({ 'people.csv': singleByte(rows.join('\n') + '\n') }, async (env) => {
      const [[name, city]] = await queryImage(env.image, 'SELECT name, city FROM people WHERE id = 1999');
      assert.equal(name, 'José Müller');
      assert.equal(city, 'Zürich');
      assert.equal((await queryImage(env.image, 'SELECT count(*) FROM people'))[0][0], 2000);
      assert.equal(env.profile.files[0].encoding, 'iso-8859-1');
      const note = env.profile.diagnostics.find((d) => d.file === 'people.csv');
      assert.equal(note?.severity, 'info');
      assert.match(note!.message, /Not UTF-8: read as ISO-8859-1 \(latin-1\) \(1 line\(s\) hold non-ASCII characters/);
      assert.equal(JSON.stringify(await queryImage(env.image, 'SELECT name FROM people')).includes('\uFFFD'), false);
    });
  });

  it('reads a heavily accented latin-1 CSV as text, not as binary data', async () => {
    const words = ['Ångström', 'Ærøskøbing', 'façade', 'naïveté', 'Şişli', 'crème brûlée', 'Göteborg', 'Málaga', 'Ñuñoa', 'ÉLÉGANCE'];
    const safe = words.filter((w) => [...w].every((ch) => ch.charCodeAt(0) <= 0xff));
    const rows = ['word,length'];
    for (let i = 0; i < 3000; i++) rows.push(`${safe[i % safe.length]} ${'é'.repeat(1 + (i % 5))},${i}`);
    await withFolder({ 'words.csv': singleByte(rows.join('\r\n') + '\r\n') }, async (env) => {
      assert.deepEqual(env.profile.diagnostics.filter((d) => d.severity === 'error'), []);
      const values = (await queryImage(env.image, 'SELECT word FROM words ORDER BY length LIMIT 3')).map((r) => r[0]);
      assert.deepEqual(values, [`${safe[0]} é`, `${safe[1]} éé`, `${safe[2]} ééé`]);
      assert.equal(env.profile.files[0].encoding, 'iso-8859-1');
    });
  });

  it('reads Windows-1252 quotes, dashes and the euro sign', async () => {
    const text = 'item,note,price\n1,“Best” seller – limited,€12\n2,Jack’s … choice,€3\n';
    await withFolder({ 'shop.csv': singleByte(text), 'notes.md': singleByte('# Pricing\n\nPrices include the “eco” levy — €0.10 per item.\n') }, async (env) => {
      const rows = await queryImage(env.image, 'SELECT note, price FROM shop ORDER BY item');
      assert.deepEqual(rows, [['“Best” seller – limited', '€12'], ['Jack’s … choice', '€3']]);
      assert.deepEqual(env.profile.files.map((f) => [f.file, f.encoding]), [['notes.md', 'windows-1252'], ['shop.csv', 'windows-1252']]);
      assert.match(env.documents[0].sections[0].text, /the “eco” levy — €0\.10/);
      assert.ok(env.profile.diagnostics.some((d) => d.file === 'shop.csv' && /read as Windows-1252/.test(d.message)));
    });
  });

  it('reads latin-1 JSON and JSONL', async () => {
    await withFolder({
      'stores.json': singleByte('[{"id": 1, "name": "Café Größe"}, {"id": 2, "name": "Señor"}]'),
      'events.jsonl': singleByte('{"who": "Zoë", "n": 1}\n{"who": "Noël", "n": 2}\n'),
    }, async (env) => {
      assert.deepEqual(await queryImage(env.image, 'SELECT name FROM stores ORDER BY id'), [['Café Größe'], ['Señor']]);
      assert.deepEqual(await queryImage(env.image, 'SELECT who FROM events ORDER BY n'), [['Zoë'], ['Noël']]);
    });
  });

  it('names the lines of a UTF-8 file that hold bytes that are not UTF-8, keeps its other characters', async () => {
    const lines = ['id,name'];
    for (let i = 1; i <= 20; i++) lines.push(`${i},Müller ${i}`);
    const bytes = Buffer.from(lines.join('\n') + '\n', 'utf8');
    // Corrupt one byte on line 5 and line 9 (a lead byte without its continuation).
    const corrupt = (line: number) => {
      const start = bytes.indexOf(Buffer.from(`\n${line - 1},`)) + 1;
      bytes[start + String(line - 1).length + 2] = 0xc3;
      bytes[start + String(line - 1).length + 3] = 0x28;
    };
    corrupt(5);
    corrupt(9);
    await withFolder({ 'names.csv': bytes }, async (env) => {
      const note = env.profile.diagnostics.find((d) => d.file === 'names.csv');
      assert.equal(note?.severity, 'warning');
      assert.match(note!.message, /UTF-8, but 2 line\(s\) hold bytes that are not valid UTF-8 \(lines 5, 9\); each such byte was read as U\+FFFD/);
      assert.equal(note!.line, 5);
      assert.equal(env.profile.files[0].encoding, 'utf-8');
      const names = (await queryImage(env.image, 'SELECT name FROM names ORDER BY id')).map((r) => r[0] as string);
      assert.equal(names[0], 'Müller 1');
      assert.ok(names[3].includes('\uFFFD'), names[3]);
      assert.equal(names.filter((n) => n.includes('\uFFFD')).length, 2);
    });
  });

  it('reads UTF-16 with a byte-order mark (LE and BE)', async () => {
    const text = 'city,population\nKöln,1084000\n東京,13960000\n';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le);
    for (let i = 0; i < be.length; i += 2) [be[i], be[i + 1]] = [be[i + 1], be[i]];
    await withFolder({ 'le.csv': le, 'be.csv': be }, async (env) => {
      for (const table of ['le', 'be']) {
        assert.deepEqual(await queryImage(env.image, `SELECT city, population FROM ${table} ORDER BY population`), [['Köln', 1084000], ['東京', 13960000]]);
      }
      assert.deepEqual(env.profile.files.map((f) => f.encoding), ['utf-16be', 'utf-16le']);
    });
  });

  it('keeps a multi-byte character whole where a read chunk ends (no false invalid bytes)', async () => {
    // 3-byte '€' over 3 MiB: 1 MiB chunks end inside a character.
    const line = 'price\n' + '€'.repeat(1_100_000) + '\n';
    const folder = makeFolder({ 'wide.txt': line });
    try {
      const { report } = await inspectTextFile(`${folder.root}/wide.txt`);
      assert.equal(report.encoding, 'utf-8');
      assert.equal(report.invalidLineCount, 0);
    } finally {
      folder.cleanup();
    }
  });

  it('still refuses random bytes named .csv and .md as binary', async () => {
    const random = Buffer.from(Array.from({ length: 50_000 }, (_, i) => (i * 7919 + ((i * i) % 251)) % 256));
    await withFolder({ 'noise.csv': random, 'noise.md': random, 'ok.csv': 'x\n1\n' }, async (env) => {
      assert.deepEqual(env.profile.tables.map((t) => t.name), ['ok']);
      for (const file of ['noise.csv', 'noise.md']) {
        assert.match(env.profile.diagnostics.find((d) => d.file === file)!.message, /binary data, not text/);
      }
    });
  });
});
