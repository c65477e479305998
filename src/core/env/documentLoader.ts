import { parse as parseYaml } from 'yaml';
import { descriptorDocument } from './descriptorDocument';
import { readTextFile } from './textEncoding';
import { report, type LoaderContext } from './loaderContext';
import type { DocumentSection } from './types';

/** A paragraph line a setext underline can turn into a heading (not a list item, quote, table row, code or HTML). */
function mayBeSetextText(line: string): boolean {
  return (
    line.trim() !== '' &&
    !/^ {4,}|^\t/.test(line) &&
    !/^\s{0,3}([-*+]\s|\d+[.)]\s|>|\||<|#|`{3}|~{3})/.test(line) &&
    !/^\s{0,3}[-=*_ ]+$/.test(line) &&
    !line.includes('|')
  );
}

/**
 * Splits Markdown into sections at headings: ATX (`#`…`######`) and setext (a paragraph underlined with `===`,
 * level 1, or `---`, level 2, as CommonMark reads them: the paragraph lines just above the underline), ignoring
 * heading lines inside fenced code blocks and YAML front matter.
 */
export function markdownSections(text: string): DocumentSection[] {
  const sections: DocumentSection[] = [];
  let current: DocumentSection = { heading: '', level: 0, text: '' };
  const body: string[] = [];
  let fence: string | undefined;
  const flush = () => {
    current.text = body.join('\n').trim();
    if (current.level > 0 || current.text !== '') sections.push(current);
    body.length = 0;
  };
  // YAML front matter (`---` … `---` at the top) holds no headings.
  let frontMatter = false;
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fenceMatch) {
      if (!fence) fence = fenceMatch[1][0];
      else if (fenceMatch[1][0] === fence) fence = undefined;
    }
    const heading = fence || frontMatter ? null : /^\s{0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$/.exec(line);
    const underline = fence || fenceMatch ? null : /^\s{0,3}(=+|-+)[ \t]*$/.exec(line);
    // The paragraph just above (its last lines that can be heading text, up to a blank line or another block) is the heading.
    let paragraph = 0;
    if (underline && !frontMatter) while (paragraph < body.length && mayBeSetextText(body[body.length - 1 - paragraph])) paragraph++;
    if (index === 0 && /^---\s*$/.test(line)) frontMatter = true;
    else if (frontMatter && /^(---|\.\.\.)\s*$/.test(line)) {
      frontMatter = false;
      body.push(line);
      continue;
    }
    if (underline && paragraph > 0) {
      const text = body.splice(body.length - paragraph, paragraph).map((l) => l.trim()).join(' ');
      flush();
      current = { heading: text, level: underline[1][0] === '=' ? 1 : 2, text: '' };
    } else if (heading) {
      flush();
      current = { heading: heading[2].trim(), level: heading[1].length, text: '' };
    } else {
      body.push(line);
    }
  }
  flush();
  return sections;
}

/**
 * A variable's first line in an NLS Investigator codebook (`R01736.00    [SAMPLE_ID]    Survey Year: 1979`): the
 * reference number's two parts (`R01736`, `00`: the data's column `R0173600`), the variable's name, its round.
 */
export const CODEBOOK_VARIABLE = /^([A-Z]\d{5})\.(\d{2})\s+\[([^\]]+)\]\s+Survey Year:\s*(\S+)/;

/**
 * A codebook in NLS Investigator's layout (`.cdb`), one section per variable, headed by its reference number, its
 * name, its round and its title (`R01736.00 SAMPLE_ID 1979: SAMPLE IDENTIFICATION CODE`): an agent finds the variable
 * it needs and reads its codes, not the whole book. Undefined for any other text.
 */
function codebookSections(text: string): DocumentSection[] | undefined {
  const lines = text.split(/\r?\n/);
  const starts = lines.flatMap((l, at) => (CODEBOOK_VARIABLE.test(l) ? [at] : []));
  if (starts.length < 3) return undefined;
  const sections: DocumentSection[] = [];
  if (lines.slice(0, starts[0]).join('\n').trim() !== '') sections.push({ heading: '', level: 0, text: lines.slice(0, starts[0]).join('\n').trim() });
  starts.forEach((start, i) => {
    const block = lines.slice(start, starts[i + 1] ?? lines.length);
    const [, stem, digits, name, round] = CODEBOOK_VARIABLE.exec(block[0])!;
    const reference = `${stem}.${digits}`;
    const title = block.slice(1).map((l) => l.trim()).find((l) => l !== '' && !/^(PRIMARY|CREATED|SYMBOL|KEY) VARIABLE$/i.test(l)) ?? '';
    sections.push({ heading: `${reference} ${name} ${round}${title ? `: ${title}` : ''}`, level: 2, text: block.join('\n').replace(/\n-{10,}\s*$/, '').trim() });
  });
  return sections;
}

function fileTitle(file: string): string {
  const base = file.split('/').pop() ?? file;
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** Markdown and plain-text files become documents the agent can search and read. */
export async function loadDocument(context: LoaderContext, isMarkdown: boolean): Promise<void> {
  let text = await readTextFile(context.absolutePath, context.encoding ?? 'utf-8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') {
    report(context, 'warning', 'Empty file: nothing to load.');
    return;
  }
  const sections = isMarkdown ? markdownSections(text) : (codebookSections(text) ?? [{ heading: '', level: 0, text: text.trim() }]);
  // A data package in the YAML front matter (a dataset's page, `resources:` with a `schema:` of `fields:`): its
  // files and columns as sections, one line per field, which the semantic layer reads as a data dictionary.
  if (isMarkdown) sections.push(...frontMatterSections(context, text));
  const title = sections.find((s) => s.level === 1)?.heading || fileTitle(context.file);
  context.documents.push({ name: context.file, sourceFile: context.file, title, sizeBytes: context.sizeBytes, sections });
}

/** The sections a Frictionless descriptor in a Markdown file's YAML front matter gives; none for other front matter. */
function frontMatterSections(context: LoaderContext, text: string): DocumentSection[] {
  const match = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) return [];
  let data: unknown;
  try {
    data = parseYaml(match[1], { maxAliasCount: 100 });
  } catch (e) {
    report(context, 'info', `The YAML front matter could not be read (${(e as Error).message.split('\n')[0]}); the document is loaded without it.`);
    return [];
  }
  const described = descriptorDocument(context.file, context.sizeBytes, data);
  return (described?.sections ?? []).map((section) => ({ ...section, heading: section.level === 1 ? `${section.heading} (front matter)` : section.heading }));
}