import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { loadSemanticEnvironment } from '../../src/core/semantics/index';
import type { SemanticEnvironment } from '../../src/core/semantics/types';
import { makeFolder } from '../support/envFixtures';

const PUBLIC = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'public');

const column = (env: SemanticEnvironment, table: string, name: string) => {
  const found = env.semantics.columns.find((c) => c.table === table && c.column === name);
  assert.ok(found, `${table}.${name}`);
  return found;
};

async function loadFolder(files: Record<string, string>): Promise<SemanticEnvironment> {
  const folder = makeFolder(files);
  try {
    return await loadSemanticEnvironment(folder.root);
  } finally {
    folder.cleanup();
  }
}

describe('semantics: dictionaries in codebook tables, setext headings and tables without outer pipes', function () {
  this.timeout(240_000);

  it('attaches a codebook CSV (table, name, description) to the columns of the tables it names, and a pipe-less Markdown table', async () => {
    const env = await loadFolder({
      'stations.csv': 'station_code,station_name,elevation_m,opened\nKEW,Kew Gardens,6,1871\nDUR,Durham,102,1850\nARM,Armagh,62,1795\n',
      'readings.csv': 'station_code,reading_date,rain_mm,max_temp\nKEW,2024-01-13,2.4,8.1\nDUR,2024-01-14,0,5.5\nARM,2024-01-15,11.2,7\n',
      'codebook.csv': [
        'table,variable,label',
        'stations,station_code,Three-letter code of the weather station',
        'stations,station_name,Name of the station as the Met Office lists it',
        'stations,elevation_m,Height of the rain gauge above sea level in metres',
        'readings,station_code,Code of the station that took the reading',
        'readings,rain_mm,Rain that fell over the day in millimetres',
        'readings,max_temp,Highest air temperature of the day in degrees Celsius',
        'retired,closed_on,Date the station closed for good',
      ].join('\n'),
      'README.md': 'Readings\n========\n\nfield | unit | description\n--- | --- | ---\nreading_date | | Day the reading is for\nopened | year | Year the station opened\n',
    });
    assert.equal(column(env, 'stations', 'station_code').description?.value, 'Three-letter code of the weather station');
    assert.equal(column(env, 'readings', 'station_code').description?.value, 'Code of the station that took the reading');
    assert.equal(column(env, 'readings', 'rain_mm').description?.source.kind, 'dictionary');
    assert.equal((column(env, 'readings', 'rain_mm').description?.source as { file?: string }).file, 'codebook.csv');
    assert.equal(column(env, 'readings', 'max_temp').description?.value, 'Highest air temperature of the day in degrees Celsius');
    // The codebook describes its own columns nowhere; a row for a table that is not here attaches to nothing.
    assert.equal(env.semantics.dictionary.filter((e) => e.column === 'closed_on').length, 0);
    // The README's table has no outer pipes.
    assert.equal(column(env, 'readings', 'reading_date').description?.value, 'Day the reading is for');
    assert.equal(env.semantics.dictionary.find((e) => e.column === 'opened')?.unit, 'year');
    assert.deepEqual(env.profile.documents[0].headings, ['Readings']);
  });

  it('does not read an ordinary table of names and prose as a codebook', async () => {
    const env = await loadFolder({
      'people.csv': 'name,role,bio\nAda,engineer,Wrote the first program for an engine\nAlan,mathematician,Broke codes and defined computing\nGrace,admiral,Built the first compiler for a language\n',
      'scores.csv': 'name,role,score\nAda,engineer,3\nAlan,mathematician,4\nGrace,admiral,5\n',
    });
    assert.deepEqual(env.semantics.dictionary, []);
  });

  it('reads the ParlGov codebook (CSV and workbook sheet) onto the columns of the views and sheets it describes', async () => {
    const env = await loadSemanticEnvironment(path.join(PUBLIC, 'parlgov-elections', 'data'));
    assert.equal(column(env, 'view_election', 'seats').description?.value, 'number of seats won by party');
    assert.equal(column(env, 'view_election', 'vote_share').description?.value, 'percentage of votes for a party');
    assert.equal(column(env, 'view_party', 'party_id').description?.value, 'party id');
    assert.equal(column(env, 'view_election', 'party_id').description?.value?.startsWith('ParlGov unique party identifier'), true);
    // The workbook's sheets are the same views under other names: their rows are found by their columns.
    assert.equal(column(env, 'parlgov_election', 'seats').description?.value, 'number of seats won by party');
    assert.equal(column(env, 'parlgov_cabinet', 'seats').description?.value, 'number of seats in parliament');
    assert.equal(column(env, 'parlgov_cabinet', 'cabinet_name').description?.value?.startsWith('label/name of cabinet'), true);
    for (const table of ['view_election', 'view_party', 'parlgov_party', 'parlgov_election', 'parlgov_cabinet']) {
      const columns = env.semantics.columns.filter((c) => c.table === table);
      assert.equal(columns.filter((c) => c.description).length, columns.length, table);
    }
  });

  it('reads the lichess README (setext headings, a field table without outer pipes) onto the five opening files', async () => {
    const env = await loadSemanticEnvironment(path.join(PUBLIC, 'lichess-chess-openings', 'data'));
    assert.deepEqual(env.profile.documents[0].headings, ['Chess opening names', 'Conventions', 'Contributing', 'Copyright']);
    assert.deepEqual(env.semantics.dictionary.map((e) => e.column), ['eco', 'name', 'pgn']);
    for (const part of ['a', 'b', 'c', 'd', 'e']) {
      assert.equal(column(env, part, 'name').description?.value, 'Opening name (English language)');
      assert.match(column(env, part, 'pgn').description?.value ?? '', /^Well known sequence of moves/);
    }
  });
});

describe('semantics: one column table per file, tables in other languages, a documentation folder', function () {
  this.timeout(240_000);

  it("attaches DATA.md's column tables to the Parquet file each section links (kptcl-load-curve-parquet)", async () => {
    const env = await loadSemanticEnvironment(path.join(PUBLIC, 'kptcl-load-curve-parquet', 'data'));
    // Each section links its Parquet file and a zipped CSV twin (`kptcl.csv.zip`, no CSV): the Parquet file scopes it.
    assert.equal(env.semantics.dictionary.find((e) => e.column === 'grid_load_mw')?.scope, 'kptcl.parquet');
    assert.equal(column(env, 'kptcl', 'observed_at').description?.value, 'Observation timestamp derived from report_date and report_hour.');
    assert.match(column(env, 'kptcl_reservoirs', 'observed_at').description?.value ?? '', /^Reservoir observation time read from the report heading\./);
    // The daily-summary section (its file not shipped) also lists `category`: the stations' own section wins.
    assert.equal(column(env, 'kptcl_stations', 'category').description?.value, 'Nearest source section heading, such as a generation or exchange category.');
    assert.equal(column(env, 'kptcl_reservoirs', 'current_storage_percent').description?.value, 'Current storage as a percentage.');
    const described = env.semantics.columns.filter((c) => c.description?.source.kind === 'dictionary').length;
    const all = env.profile.tables.filter((t) => t.kind === 'table').reduce((n, t) => n + t.columns.length, 0);
    assert.equal(described, all, 'every column of the three files is described');
  });

  it("reads the German `| Parameter | Beschreibung |` table in docu/ onto the workbook's parameter sheet (zh-decarb-monitoring)", async () => {
    const env = await loadSemanticEnvironment(path.join(PUBLIC, 'zh-decarb-monitoring', 'data'));
    // Before: 0 entries (no header said which column describes, and docu/ holds no data).
    assert.equal(env.semantics.dictionary.filter((e) => e.file === 'docu/parameter_list.md').length, 30);
    assert.equal(column(env, 't_2773_monitoring_parameterliste_zh', 'dataset_id').description?.value, 'ID gem. AWEL');
    assert.equal(column(env, 't_2773_monitoring_parameterliste_zh', 'year_col').description?.value, 'Name der Spalte, in der das Erfassungsjahr steht');
  });

  it('takes the prose column when no header names it, prefers an English description beside a translation, and reads docs/ for the folder above', async () => {
    const env = await loadFolder({
      'stations.csv': 'station_code,elevation_m,opened\nKEW,6,1871\nDUR,102,1850\nARM,62,1795\n',
      'docs/columns.md': [
        '| Feld | Erklärung |',
        '|---|---|',
        '| station_code | Kurzzeichen der Station aus drei Buchstaben |',
        '| elevation_m | Höhe des Regenmessers über dem Meer in Metern |',
        '',
        '| Nome campo | Descrizione | Description |',
        '|---|---|---|',
        '| opened | Anno di apertura | Year the station opened |',
        '| elevation_m | Altezza | Height above sea level |',
      ].join('\n'),
    });
    assert.equal(column(env, 'stations', 'station_code').description?.value, 'Kurzzeichen der Station aus drei Buchstaben');
    assert.equal(column(env, 'stations', 'opened').description?.value, 'Year the station opened');
  });
});
