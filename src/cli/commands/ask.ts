import * as fs from 'node:fs';
import * as path from 'node:path';
import { runEpisode } from '../../core/agent/episode';
import { openAgentSession } from '../../core/agent/session';
import { AgentStep, FULL_CONTEXT, contextLengthLabel, parseContextLength } from '../../core/agent/types';
import { createOpenAiProvider } from '../../core/llm/openaiProvider';
import { NO_SIMULATION_MESSAGE, OFFLINE_SIM_PROVIDER_ID } from '../../core/sim/index';
import type { LlmProvider, ReasoningEffort } from '../../core/llm/types';
import { CliError, parseCommandArgs, type CliCommand } from '../command';

const USAGE = `Usage: toffee ask <folder> "<question>" [options]

Runs one linear agent episode (no search) over the folder's data and prints each step.

Options:
  --provider openai|offline-sim   default openai (any OpenAI-compatible endpoint)
  --model M                       default gpt-4o-mini
  --base-url URL                  endpoint, e.g. http://localhost:11434/v1
  --api-key-env NAME              environment variable holding the API key (default OPENAI_API_KEY)
  --max-steps N                   default 12
  --context full|last-K           history kept in the prompt (default full)
  --effort low|medium|high        reasoning effort, when the model supports it

offline-sim only plays tasks with a reference solution (see \`toffee sim-stats\`); it declines free questions.`;

function indent(text: string, prefix = '    '): string {
  return text.split('\n').map((line) => prefix + line).join('\n');
}

/** One step as the CLI prints it: header, thought, call, observation. */
export function formatStep(step: AgentStep): string {
  const tokens = `${step.usage.prompt}+${step.usage.completion} tok`;
  const lines = [`Step ${step.index + 1} · ${step.config.model}${step.config.simulated ? ' (simulated)' : ''} · ${tokens} · $${step.costUsd.toFixed(6)} · ${step.latencyMs} ms`];
  if (step.thought.trim()) lines.push(`  thought: ${step.thought.trim().replace(/\n/g, '\n           ')}`);
  if (step.toolCall) lines.push(`  call: ${step.toolCall.name} ${step.toolCall.arguments}`);
  if (step.ignoredToolCalls) lines.push(`  (${step.ignoredToolCalls} more tool call(s) in the same reply were not executed)`);
  lines.push(`  observation${step.observation.ok ? '' : ' (error)'}:`);
  lines.push(indent(step.observation.text));
  return lines.join('\n');
}

export const askCommand: CliCommand = {
  name: 'ask',
  summary: 'Run one agent episode over a folder for a question and print each step',
  usage: USAGE,
  async run(argv) {
    const parsed = parseCommandArgs(argv, {
      provider: { type: 'string', default: 'openai' },
      model: { type: 'string' },
      'base-url': { type: 'string' },
      'api-key-env': { type: 'string' },
      'max-steps': { type: 'string', default: '12' },
      context: { type: 'string', default: 'full' },
      effort: { type: 'string' },
    }, USAGE);
    const { values, positionals } = parsed;
    if (positionals.length !== 2) throw new CliError(`expected a folder and a question\n${USAGE}`, 2);
    const [folderArg, question] = positionals;
    const folder = path.resolve(folderArg);
    if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) throw new CliError(`not a folder: ${folderArg}`);
    if (question.trim() === '') throw new CliError('the question is empty');
    const maxSteps = Number(values['max-steps']);
    if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new CliError(`--max-steps must be a positive integer, not '${values['max-steps']}'`, 2);
    const contextLength = parseContextLength(values.context ?? 'full');
    if (!contextLength) throw new CliError(`--context must be 'full' or 'last-K', not '${values.context}'`, 2);
    const effort = values.effort;
    if (effort !== undefined && !['low', 'medium', 'high'].includes(effort)) throw new CliError(`--effort must be low, medium or high, not '${effort}'`, 2);

    let provider: LlmProvider;
    const model = values.model ?? 'gpt-4o-mini';
    if (values.provider === OFFLINE_SIM_PROVIDER_ID) {
      // A free question has no reference solution to simulate from.
      throw new CliError(NO_SIMULATION_MESSAGE);
    } else if (values.provider === 'openai') {
      provider = createOpenAiProvider({ baseUrl: values['base-url'], apiKeyEnv: values['api-key-env'], models: [model] });
    } else {
      throw new CliError(`unknown provider '${values.provider}'; use openai or offline-sim`, 2);
    }

    const session = await openAgentSession(folder);
    try {
      const { profile } = session.env;
      const errors = profile.diagnostics.filter((d) => d.severity === 'error').length;
      console.log(`Environment ${folder}: ${profile.tables.length} tables, ${session.env.documents.length} documents${errors ? `, ${errors} file errors` : ''}`);
      console.log(`Question: ${question}`);
      console.log(`Provider ${provider.id}, model ${model}, context ${contextLengthLabel(contextLength ?? FULL_CONTEXT)}${effort ? `, effort ${effort}` : ''}\n`);
      const controller = new AbortController();
      const onSigint = () => controller.abort();
      process.once('SIGINT', onSigint);
      const result = await runEpisode({
        task: { question },
        config: { provider, model, contextLength, reasoningEffort: effort as ReasoningEffort | undefined },
        toolContext: session.toolContext,
        maxSteps,
        signal: controller.signal,
        onStep: (step) => console.log(`${formatStep(step)}\n`),
      }).finally(() => process.removeListener('SIGINT', onSigint));
      const t = result.totals;
      const reasoning = t.usage.reasoning ? `, ${t.usage.reasoning} reasoning` : '';
      console.log(`Totals: ${t.steps} steps (${t.errorSteps} errors) · ${t.usage.prompt} prompt + ${t.usage.completion} completion tokens${reasoning} · $${t.costUsd.toFixed(6)} · ${(t.latencyMs / 1000).toFixed(1)} s model time`);
      switch (result.stopReason) {
        case 'final_answer':
          console.log(`Answer: ${result.state.finalAnswer!.answer}`);
          if (result.state.finalAnswer!.explanation) console.log(`Explanation: ${result.state.finalAnswer!.explanation}`);
          return 0;
        case 'max_steps':
          console.log(`Stopped: no final answer within ${maxSteps} steps.`);
          return 3;
        case 'aborted':
          console.log('Stopped: cancelled.');
          return 130;
        case 'provider_error':
          throw new CliError(`the model call failed${result.errorKind ? ` (${result.errorKind})` : ''}: ${result.error}`);
      }
    } finally {
      await session.dispose();
    }
  },
};
