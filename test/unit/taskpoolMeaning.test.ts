/**
 * What the fourth blind review of the questions found, on public data nobody on the team wrote: rows named after a
 * column or a key's abbreviation ("numerics" for countries, "franch", "for how many organizations is the value of
 * organizations"), codes used as words ("w", "ghome", "prcp"), a column related to one computed from it (an index and
 * the price it rescales, two running totals, a running total and its daily increments, wins within games), and
 * periods named or chosen wrongly ("(years by year ID)", a full 2024 against three quarters of 2025).
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { openAgentSession } from '../../src/core/agent/session';
import { columnPhrase, derivedPair, groupingName, groupings, isCrypticName, isNumberedSide, labelColumn, measures, rowName, runningTotal, things } from '../../src/core/taskpool/families/kit';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { columnOf as column, environments, tableOf as table } from '../support/familyContexts';
import { PUBLIC_FIXTURES } from '../support/publicFixtures';

describe('task pool: nouns, codes, derived pairs and periods an analyst would accept', function () {
  this.timeout(600_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('never groups by, or names a row by, one of a numbered pair of sides (team1 / team2): which side a team is listed on is arbitrary', async () => {
    const { context, session } = await env('openfootball-worldcup');
    const matches = context.profile.tables.filter((t) => t.columns.some((c) => c.name === 'team1') && t.columns.some((c) => c.name === 'team2'));
    assert.ok(matches.length >= 10, `${matches.length} match tables with team1 and team2`);
    for (const t of matches) {
      assert.equal(isNumberedSide(t, column(context, t.name, 'team1')), true, t.name);
      assert.ok(!groupings(context, t).some((c) => /^team[12]$/.test(c.name)), `${t.name}: grouped by a side`);
      assert.ok(!['team1', 'team2'].includes(labelColumn(context, t, t.columns[0]).name), `${t.name}: a match named by one of its teams`);
    }
    // Pairs named for what the sides are (home / away) stay groupings.
    const football = (await env('football-premier-league')).context;
    const season = football.profile.tables.find((t) => t.columns.some((c) => c.name === 'home_team'))!;
    assert.equal(isNumberedSide(season, column(football, season.name, 'home_team')), false);
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length > 0);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /\bteam[12]\b/, task.question);
  });

  it('names rows by a plural table name before a key word, a list of codes by what it lists, and no row after a column it counts', async () => {
    const world = (await env('csc-world-sqlite')).context;
    // `numeric_code` is unique in countries, but "numerics" are no rows anyone counts.
    assert.equal(things(world, table(world, 'countries'), 'many'), 'countries');
    const datahub = (await env('datahub-country-indicators')).context;
    assert.equal(things(datahub, table(datahub, 'country_codes'), 'many'), 'countries');
    // A country per year: the rows are no "top economies".
    assert.equal(rowName(datahub, table(datahub, 'top_economies')), undefined);
    const github = (await env('github-innovation-graph')).context;
    // developers.csv holds a developers count per economy and quarter; licenses.csv one spdx_license per row.
    for (const name of ['developers', 'organizations', 'git_pushes', 'licenses']) assert.equal(rowName(github, table(github, name)), undefined, name);
    // A whole file is named by its name, as its user knows it.
    assert.equal(things(github, table(github, 'licenses'), 'many'), 'rows in licenses.csv');
    const lahman = (await env('lahman-baseball')).context;
    // TeamsFranchises keyed by franchID: franchises, not "franches"; AwardsPlayers: two plurals, no noun.
    assert.equal(things(lahman, table(lahman, 'teams_franchises'), 'many'), 'franchises');
    assert.equal(rowName(lahman, table(lahman, 'awards_players')), undefined);
    // Teams holds a team per season; HomeGames a `games` count per team, park and season.
    assert.equal(rowName(lahman, table(lahman, 'teams')), undefined);
    assert.equal(rowName(lahman, table(lahman, 'home_games')), undefined);
    assert.equal(things(lahman, table(lahman, 'people'), 'many'), 'players');
  });

  it("names a code by its README legend's words, quotes a cryptic code nothing explains, and keeps words as words", async () => {
    const lahman = (await env('lahman-baseball')).context;
    assert.equal(columnPhrase(lahman, 'teams', column(lahman, 'teams', 'w')), 'wins');
    assert.equal(columnPhrase(lahman, 'teams', column(lahman, 'teams', 'ghome')), 'games played at home');
    assert.equal(columnPhrase(lahman, 'teams', column(lahman, 'teams', 'wswin')), 'world series winner');
    assert.equal(columnPhrase(lahman, 'people', column(lahman, 'people', 'bats')), 'batting hand');
    const weather = (await env('portal-weather')).context;
    assert.equal(columnPhrase(weather, 'portal4sw_regional_weather', column(weather, 'portal4sw_regional_weather', 'prcp')), "'prcp'");
    assert.equal(columnPhrase(weather, 'portal4sw_regional_weather', column(weather, 'portal4sw_regional_weather', 'snow')), 'snow');
    for (const word of ['snow', 'price', 'region', 'GDP', 'FTHG', 'throws', 'debut']) assert.ok(!isCrypticName(word), word);
    for (const code of ['W', 'l', 'HS', 'prcp', 'tmax', 'GHome', 'WSWin', 'LgWin']) assert.ok(isCrypticName(code), code);
    const world = (await env('csc-world-sqlite')).context;
    const area = table(world, 'countries').columns.find((c) => /area/.test(c.name));
    assert.ok(area, 'an area column');
    assert.equal(columnPhrase(world, 'countries', area), 'area (km²)');
    const datahub = (await env('datahub-country-indicators')).context;
    const independent = column(datahub, 'country_codes', 'is_independent');
    assert.equal(groupingName({ column: independent, table: table(datahub, 'country_codes'), ref: 'c."is_independent"' }, datahub), "'is independent' value");
  });

  it('never relates an index to the price it rescales, a running total to another or to its increments, or wins to games', async () => {
    const bigMac = (await env('economist-big-mac')).context;
    const full = 'big_mac_full_index';
    assert.ok(derivedPair(bigMac, { table: full, column: 'dollar_price' }, { table: full, column: 'usd_raw' }), 'USD_raw = dollar_price / US price − 1');
    assert.ok(derivedPair(bigMac, { table: full, column: 'eur_raw' }, { table: full, column: 'gbp_raw' }), 'two indexes of one dollar price');
    const rki = (await env('rki-covid-deaths')).context;
    const de = 'covid_19_todesfaelle_deutschland';
    assert.ok(runningTotal(rki, de, 'faelle_gesamt') && runningTotal(rki, de, 'todesfaelle_gesamt'));
    assert.ok(!runningTotal(rki, de, 'todesfaelle_neu'), 'the daily count is no running total');
    assert.ok(derivedPair(rki, { table: de, column: 'faelle_gesamt' }, { table: de, column: 'todesfaelle_gesamt' }), 'two running totals move with time');
    assert.ok(derivedPair(rki, { table: de, column: 'todesfaelle_gesamt' }, { table: de, column: 'todesfaelle_neu' }), 'a running total and its increments');
    assert.ok(!measures(rki, table(rki, de)).some((c) => c.name === 'todesfaelle_gesamt'), 'a running total is averaged or summed nowhere');
    const byAge = 'covid_19_todesfaelle_altersgruppen';
    assert.ok(runningTotal(rki, byAge, 'todesfaelle_gesamt'), 'a running total within each age group');
    const lahman = (await env('lahman-baseball')).context;
    assert.ok(derivedPair(lahman, { table: 'managers', column: 'w' }, { table: 'managers', column: 'g' }), 'wins are within games managed');
    // Two quantities stay two: runs scored and runs allowed.
    assert.ok(!derivedPair(lahman, { table: 'teams', column: 'r' }, { table: 'teams', column: 'ra' }));
  });

  it('asks no change against a partial last year, names no period column needlessly, and compares no index with its adjusted twin', async () => {
    const github = await env('github-innovation-graph');
    const pool = await buildTaskPool(github.session.toolContext);
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /\b(to|and) 2025\b/, `2025 holds three quarters: ${task.question}`);
      assert.doesNotMatch(task.question, /years by/, task.question);
      assert.doesNotMatch(task.question, /for how many organizations|with at least \d+ licenses/, task.question);
    }
    const bigMac = await env('economist-big-mac');
    const macPool = await buildTaskPool(bigMac.session.toolContext);
    for (const task of macPool.tasks) {
      assert.doesNotMatch(task.question, /big mac adjusted index table with those of the big mac raw index/, `adjusted and raw indexes are two quantities: ${task.question}`);
      assert.doesNotMatch(task.question, /dollar ex values differ|local price values differ/, `amounts in each row's currency: ${task.question}`);
      assert.doesNotMatch(task.question, /complete months/, `surveys twice a year have no complete month: ${task.question}`);
    }
  });
});

describe('task pool: a long table of observations in several quantities', function () {
  this.timeout(300_000);
  it('asks nothing over the Zürich monitoring files, whose Wert holds tonnes, MWh, per-person ratios and shares named in Einheit and Indikator (neither their mix nor their row counts)', async () => {
    const session = await openAgentSession(path.join(PUBLIC_FIXTURES, 'zh-decarb-monitoring', 'data'));
    try {
      const { tasks } = await buildTaskPool(session.toolContext, { max: 40 });
      // The folder's other tables (the workbook's indicator catalogue) are still asked about.
      assert.ok(tasks.length > 0);
      for (const task of tasks) assert.doesNotMatch(task.question, /\bwert\b|data_all/i, task.question);
    } finally {
      await session.dispose();
    }
  });
});
