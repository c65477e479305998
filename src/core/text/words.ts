/** Names in plain words: what a question, a label or a rule calls a table or a column. */

/** A column or table name in plain words: `order_total` / `orderTotal` → "order total". */
export function words(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.\s]+/g, ' ')
    .trim()
    .toLowerCase();
}

/** A name's words one by one: `customerId` → ['customer', 'id']. */
export function nameParts(name: string): string[] {
  return words(name).split(' ').filter((part) => part !== '');
}

/** The lower-case word tokens of a text, an identifier (`unit_price`) kept whole. */
export function tokens(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9_]+/g) ?? [];
}

/** A plural word's singular, lower-cased: "jobs" → "job", "categories" → "category"; "address" stays. */
export function singular(name: string): string {
  return name.toLowerCase().replace(/ies$/, 'y').replace(/([^s])s$/, '$1');
}

/** A table name's plural in plain words: "invoice_line" → "invoice lines"; "orders" stays. */
export function plural(name: string): string {
  const w = words(name);
  // A trailing size or version ("flights 5k", "sales 2024") qualifies the noun before it, which carries the number.
  if (/\s\S*\d\S*$/.test(w)) return w;
  return /s$/.test(w) ? w : /y$/.test(w) && !/[aeiou]y$/.test(w) ? `${w.slice(0, -1)}ies` : `${w}s`;
}
