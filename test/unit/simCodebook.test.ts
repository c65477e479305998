/**
 * A codebook as the agent meets it: an NLS Investigator codebook (`.cdb`) is a document of one section per variable,
 * the offline-sim searches it for what the question is about (the rating's title, not "leaving out rows"), reads a
 * section only once an observation has shown its heading, and averages the coded answers with the codebook's codes
 * for no answer left out, as the clean-then-aggregate task asks; the reviser takes a round's year in a column's
 * title for its name, not a filter. (The data: the forty-eighth set's NLSY79 extract.)
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { runEpisode } from '../../src/core/agent/episode';
import { openAgentSession } from '../../src/core/agent/session';
import { createSimulatedProvider, simulationScript } from '../../src/core/sim/simulatedProvider';
import { buildTaskPool } from '../../src/core/taskpool/pool';
import { matchesAnswer } from '../../src/core/taskpool/answer';
import { buildStructuralGraph } from '../../src/core/taskpool/graph';
import { reviewTaskByRules } from '../../src/core/taskpool/revise';

const DATA = path.resolve(__dirname, '../../../test/fixtures/public/bls-nlsy79-risk-attitudes-csv/data');

describe('offline-sim: a survey\'s codebook, one section per variable', function () {
  this.timeout(300_000);

  it('splits the codebook by variable, and the agent finds the rating\'s section by its title before averaging without the codes', async () => {
    const session = await openAgentSession(DATA);
    try {
      const codebook = session.toolContext.documents.find((d) => d.name === 'NLSY79_supplement.cdb');
      assert.ok(codebook);
      assert.equal(codebook.sections.length, 30, 'one section per variable of the extract');
      assert.ok(codebook.sections.some((s) => s.heading === 'R01736.00 SAMPLE_ID 1979: SAMPLE IDENTIFICATION CODE'), codebook.sections.map((s) => s.heading).join('; '));
      const pool = await buildTaskPool(session.toolContext);
      const coded = [...pool.tasks, ...pool.unselected].filter((t) => t.program?.composition === 'clean-aggregate');
      assert.ok(coded.length >= 1);
      let solved = 0;
      for (const task of coded) {
        // (The round's year in the rating's title, "… while driving in 2010", names the column: no filter to apply.)
        const review = await reviewTaskByRules({ task, profile: session.env.profile, graph: buildStructuralGraph(session.env.profile, session.toolContext.documents), context: session.toolContext, paths: [] });
        assert.notEqual(review.decision, 'reject', `${task.id}: ${review.reason ?? ''}`);
        const section = task.documents?.[0]?.section;
        assert.ok(section && codebook.sections.some((s) => s.heading === section), `${task.id}: the variable's own section`);
        for (const seed of [1, 2, 3]) {
          const provider = createSimulatedProvider({ script: simulationScript(task, seed) });
          const { steps } = await runEpisode({ task: { question: task.question, taskId: task.id }, config: { provider, model: 'sim-large' }, toolContext: session.toolContext, maxSteps: 16 });
          const search = steps.findIndex((s) => s.toolCall?.name === 'search_documents');
          const read = steps.findIndex((s) => s.toolCall?.name === 'read_document' && s.observation.ok);
          assert.ok(search >= 0 && read > search, `${task.id}: searched at ${search}, read at ${read}`);
          const query = String(JSON.parse(steps[search].toolCall!.arguments).query);
          assert.doesNotMatch(query, /leaving|codebook|rows/, query);
          const args = JSON.parse(steps[read].toolCall!.arguments) as { section?: string };
          if (args.section !== undefined) assert.ok(steps.slice(0, read).some((s) => s.observation.text.includes(args.section!)), `${task.id}: a section read before any observation showed it`);
          const final = steps.at(-1);
          if (final?.toolCall?.name === 'final_answer' && matchesAnswer(task.answer, String(JSON.parse(final.toolCall.arguments).answer))) solved++;
        }
      }
      assert.ok(solved >= coded.length, `solved ${solved} of ${coded.length * 3} episodes`);
    } finally {
      await session.dispose();
    }
  });
});
