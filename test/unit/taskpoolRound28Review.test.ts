/**
 * The task pool after reading the forty-third set's pools (round 28): tables that share a short code before their names
 * (`ewf_matches`, `ewf_standings`, `ewf_appearances`) are "matches", "standings", "appearances", and a question that
 * says so names its table; a quantity a dictionary describes with its article ("The number of matches that the team
 * played") is asked without it; a game's numbered sides (`team1_id`, `team2_id`) are no grouping one at a time, and a
 * side's score (`score1`) is the "score of team 1"; files by season that hold each team once are "team years", and their counts are not pooled over seasons of different
 * lengths (7 to 28 matches played), nor are totals of groups that span different numbers of seasons z-scored; a flag
 * or a few-valued figure that is a step of a measure (a win, a match's points, by the goal difference) and a rate made
 * from the trains run and late are no findings about them; a number each season's file holds once (matches played) is
 * no measure. (The tests read the data of the forty-third set.)
 */
import * as assert from 'node:assert/strict';
import { sharedTablePrefix } from '../../src/core/env/naming';
import { columnPhrase, constructedLink, foreignKeys, isNumberedSide, measures, stepsOf, things } from '../../src/core/taskpool/families/kit';
import { partScales } from '../../src/core/taskpool/partScales';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { columnOf, environments, tableOf } from '../support/familyContexts';

describe('task pool: after reading the round-28 pools', function () {
  this.timeout(900_000);
  const { env, closeAll } = environments();
  after(closeAll);

  it('finds a short code every table shares, and none where one table lacks it or the code is a word', () => {
    const table = (name: string) => ({ name, kind: 'table' });
    assert.equal(sharedTablePrefix([table('ewf_matches'), table('ewf_standings'), table('ewf_appearances')]), 'ewf');
    assert.equal(sharedTablePrefix([table('ewf_matches'), table('teams')]), undefined);
    assert.equal(sharedTablePrefix([table('sales_orders'), table('sales_returns')]), undefined, 'a word of five letters is no code');
    assert.equal(sharedTablePrefix([table('ewf_matches')]), undefined, 'one table shares nothing');
  });

  it('asks of the EWF files by what their rows are, naming the table, and without a stray article', async () => {
    const { session } = await env('ewf-womens-football-csv');
    const pool = await buildTaskPool(session.toolContext);
    assert.ok(pool.tasks.length >= 5, `${pool.tasks.length} tasks`);
    for (const task of pool.tasks) {
      assert.doesNotMatch(task.question, /\bewf (matches|standings|appearances)\b/i, task.question);
      assert.doesNotMatch(task.question, /\b(a known|total|average) the\b/, task.question);
    }
    assert.ok(pool.tasks.some((t) => /\b(standings|appearances|matches)\b/.test(t.question) && !/ewf_/.test(t.question)), 'some question names its rows without the file name');
  });

  it('groups sport.db games by neither numbered side alone, and calls score1 the score of team 1', async () => {
    const { context, session } = await env('opensport-sportdb-football-sqlite');
    const games = context.profile.tables.find((t) => t.name === 'games')!;
    for (const name of ['team1_id', 'team2_id']) assert.ok(isNumberedSide(games, games.columns.find((c) => c.name === name)!), name);
    assert.ok(!isNumberedSide(games, games.columns.find((c) => c.name === 'round_id')!));
    assert.ok(foreignKeys(context).some((k) => k.child.name === 'games' && k.childColumn.name === 'team2_id'), 'the key is there to be skipped');
    assert.equal(columnPhrase(context, 'games', games.columns.find((c) => c.name === 'score1')!), 'score of team 1');
    assert.equal(columnPhrase(context, 'games', games.columns.find((c) => c.name === 'score5')!), 'score5', 'a shoot-out score is numbered beyond the sides');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /\bas team ?[12]\b|team[12] id/i, task.question);
  });

  it('finds a win and a match\'s points to be steps of its goal difference, and leaves goals scored apart from a win', async () => {
    const { context } = await env('ewf-womens-football-csv');
    const t = tableOf(context, 'ewf_appearances');
    const from = '"ewf_appearances"';
    const where = (a: string, b: string) => `"${a}" IS NOT NULL AND "${b}" IS NOT NULL`;
    assert.equal(await stepsOf(context, from, '"win"', '"goal_difference"', where('win', 'goal_difference')), true, 'a win is a goal difference above 0');
    assert.equal(await stepsOf(context, from, '"result"', '"goal_difference"', where('result', 'goal_difference')), true, 'win, draw, loss by its sign (but for a few awarded matches)');
    assert.equal(await stepsOf(context, from, '"win"', '"goals_for"', where('win', 'goals_for')), false, 'a side that scores 2 may win, draw or lose');
    assert.equal(await stepsOf(context, from, '"division"', '"goals_for"', where('division', 'goals_for')), false);
    assert.equal(await constructedLink(context, t, columnOf(context, 'ewf_appearances', 'points'), columnOf(context, 'ewf_appearances', 'goal_difference')), true, 'points 0, 1, 3 by the sign of the goal difference');
    assert.equal(await constructedLink(context, t, columnOf(context, 'ewf_appearances', 'points'), columnOf(context, 'ewf_appearances', 'goals_for')), false, 'a side that scores 2 may get 0, 1 or 3 points');
  });

  it('finds TER\'s regularity made from the trains run and late, and no such link between it and the trains scheduled', async () => {
    const { context } = await env('sncf-train-regularity-csv');
    const ter = 'regularite_mensuelle_ter';
    const t = tableOf(context, ter);
    const col = (name: string) => columnOf(context, ter, name);
    assert.equal(await constructedLink(context, t, col('taux_de_regularite'), col('nombre_de_trains_en_retard_a_l_arrivee')), true, '100 × (run − late) / run on 99% of rows');
    assert.equal(await constructedLink(context, t, col('taux_de_regularite'), col('nombre_de_trains_programmes')), false);
  });

  it('asks nothing of the matches each CPL season file holds once for all its teams (10, 7, 28)', async () => {
    const { context } = await env('canpl-cpl-standings-partitions');
    const view = context.profile.tables.find((t) => context.semantics.partitions.some((p) => p.view === t.name))!;
    const asked = measures(context, view).map((c) => c.name);
    assert.ok(!asked.includes('played') && asked.includes('wins') && asked.includes('goals_for'), asked.join(', '));
  });

  it('ranks no EWF division name by totals over the 1 to 7 seasons each name was used', async () => {
    const { session } = await env('ewf-womens-football-csv');
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) if (task.family === 'stats-zscore') assert.doesNotMatch(task.question, /for each division\b/, task.question);
  });

  it('calls the rows of files by season that hold each team once "team years", and pools no count over seasons of 7 to 28 matches', async () => {
    const { context, session } = await env('canpl-cpl-standings-partitions');
    const view = context.profile.tables.find((t) => context.semantics.partitions.some((p) => p.view === t.name))!;
    assert.equal(things(context, view, 'many'), 'team years');
    const scales = await partScales(context.profile, context.semantics, session.toolContext.sql);
    const mixed = scales.filter((s) => s.view === view.name).map((s) => s.column);
    for (const name of ['wins', 'losses', 'goals_for', 'goals_against', 'goal_difference', 'points']) assert.ok(mixed.includes(name), `${name} among ${mixed.join(', ')}`);
    assert.match(scales.find((s) => s.column === 'wins')!.why, /played run from 7 to 28/);
    const pool = await buildTaskPool(session.toolContext);
    for (const task of pool.tasks) assert.doesNotMatch(task.question, /\b(wins|losses|goals|goal difference|points)\b/i, task.question);
  });
});
