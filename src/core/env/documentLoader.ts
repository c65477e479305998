import { readTextFile } from './textEncoding';
import { report, type LoaderContext } from './loaderContext';
import type { DocumentSection } from './types';

/** Splits Markdown into sections at ATX headings (`#`…`######`), ignoring `#` lines inside fenced code blocks. */
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
  for (const line of text.split(/\r?\n/)) {
    const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fenceMatch) {
      if (!fence) fence = fenceMatch[1][0];
      else if (fenceMatch[1][0] === fence) fence = undefined;
    }
    const heading = fence ? null : /^\s{0,3}(#{1,6})[ \t]+(.*?)[ \t]*#*[ \t]*$/.exec(line);
    if (heading) {
      flush();
      current = { heading: heading[2].trim(), level: heading[1].length, text: '' };
    } else {
      body.push(line);
    }
  }
  flush();
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
  const sections = isMarkdown ? markdownSections(text) : [{ heading: '', level: 0, text: text.trim() }];
  const title = sections.find((s) => s.level === 1)?.heading || fileTitle(context.file);
  context.documents.push({ name: context.file, sourceFile: context.file, title, sizeBytes: context.sizeBytes, sections });
}
