/**
 * Minimal SQL / Python highlighting as text spans: a tokenizer splits the code, React renders each token as a
 * text node inside a span. No HTML strings anywhere, so code containing markup shows as characters.
 */
import type { CodeLanguage } from '../../src/shared/runView';

type TokenKind = 'keyword' | 'string' | 'number' | 'comment' | 'plain';

const SQL_KEYWORDS = new Set(
  'select from where group by order limit join left right inner outer on as and or not in is null having distinct count sum avg min max case when then else end with union all desc asc like between over partition cast strftime'.split(' '),
);
const PYTHON_KEYWORDS = new Set(
  'def return for in if elif else while import from as with try except finally class lambda not and or is None True False print len range sorted sum max min dict list set'.split(' '),
);

const TOKEN_PATTERN = /(--[^\n]*|#[^\n]*)|('(?:[^'\\]|\\.)*'?|"(?:[^"\\]|\\.)*"?)|(\b\d+(?:\.\d+)?\b)|([A-Za-z_][A-Za-z0-9_]*)|(\s+|.)/g;

export function tokenize(code: string, language: CodeLanguage): Array<{ text: string; kind: TokenKind }> {
  if (language !== 'sql' && language !== 'python') return [{ text: code, kind: 'plain' }];
  const keywords = language === 'sql' ? SQL_KEYWORDS : PYTHON_KEYWORDS;
  const tokens: Array<{ text: string; kind: TokenKind }> = [];
  for (const match of code.matchAll(TOKEN_PATTERN)) {
    const [text, comment, string, number, word] = match;
    // '#' starts a comment only in Python, '--' only in SQL.
    let kind: TokenKind = 'plain';
    if (comment && (language === 'python' ? text.startsWith('#') : text.startsWith('--'))) kind = 'comment';
    else if (comment) {
      tokens.push({ text: text[0], kind: 'plain' });
      tokens.push(...tokenize(text.slice(1), language));
      continue;
    } else if (string) kind = 'string';
    else if (number) kind = 'number';
    else if (word && keywords.has(language === 'sql' ? word.toLowerCase() : word)) kind = 'keyword';
    const last = tokens[tokens.length - 1];
    if (last && last.kind === kind && kind === 'plain') last.text += text;
    else tokens.push({ text, kind });
  }
  return tokens;
}

export function CodeBlock({ code, language }: { code: string; language: CodeLanguage }) {
  return (
    <pre className={`code code-${language}`} aria-label={`${language} code`}>
      {tokenize(code, language).map((token, i) => (
        <span key={i} className={`tok-${token.kind}`}>
          {token.text}
        </span>
      ))}
    </pre>
  );
}
