/**
 * Document-grounded counts: how many rows meet a rule a document states (a threshold, a comparison of two
 * columns, an aggregate definition per entity). The agent must read the document to know the rule.
 */
import { aggregateDocumentRules, documentRules } from '../documentRules';
import { addEdge, columnNode, sectionNode } from '../graph';
import type { TaskSpec } from '../types';
import { things, noun, q, TaskProgram, type TaskFamily } from './kit';

export const documentParameterFamily: TaskFamily = {
  id: 'document-parameter',
  description: 'A count that needs a threshold or definition stated in a Markdown document (e.g. "late = shipped more than 5 days after ordered").',
  needs: 'a document section that states a rule (a threshold, a comparison, a definition) over columns of a table',
  async generate(context) {
    const tasks: TaskSpec[] = [];
    for (const rule of [...documentRules(context), ...(await aggregateDocumentRules(context))]) {
      if (tasks.length >= context.maxPerFamily) break;
      const program = new TaskProgram(context, 'document-rule');
      const done = await program.sql(rule.sql ?? `SELECT COUNT(*) AS matching FROM ${q(rule.table.name)} WHERE ${rule.condition}`, `Apply the rule from ${rule.document} § ${rule.section}: ${rule.condition}`, {
        label: `the number of ${things(context, rule.table, 'many')} that meet the rule of ${rule.document} § ${rule.section}`,
        reading: { kind: 'number' },
      });
      if (!done || done.key.type !== 'number' || done.key.value === 0 || done.key.value === rule.table.rowCount) continue;
      if (context.graph) {
        for (const column of rule.columns) addEdge(context.graph, { from: sectionNode(rule.document, rule.section), to: columnNode(rule.table.name, column), kind: 'references', note: rule.sentence.slice(0, 200) });
      }
      tasks.push(
        program.task({
          family: this.id,
          parameters: { document: rule.document, section: rule.section, table: rule.table.name, condition: rule.condition },
          question: rule.term
            ? `How many ${things(context, rule.table, 'many')} are ${rule.term} according to the "${rule.section}" section of ${rule.document}?`
            : `Following the rule in the "${rule.section}" section of ${rule.document}, how many ${things(context, rule.table, 'many')} meet it?`,
          tables: rule.tables ?? [rule.table.name],
          dependency: 'document-parameter',
          documents: [{ document: rule.document, section: rule.section }],
          needs: this.needs,
        }),
      );
    }
    return tasks;
  },
};
