/**
 * Frictionless descriptors (a Data Package's `datapackage.json`, a Table Schema `schema.json`), BigQuery table schemas
 * and JSON Schemas describe the data files beside them; they are metadata, not data. They become documents the agent can read — one section per
 * resource, one line per field (`` - `name` (type, unit): description ``) — and the semantic layer reads those
 * lines as a data dictionary, the same way it reads a README that lists columns.
 */
import type { DataDocument, DocumentSection } from './types';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Field {
  name: string;
  type?: string;
  description?: string;
  unit?: string;
}

function fieldsOf(schema: unknown): Field[] | undefined {
  if (!isObject(schema) || !Array.isArray(schema.fields)) return undefined;
  const fields = schema.fields.filter(isObject).filter((f) => typeof f.name === 'string');
  if (fields.length === 0 || fields.length < schema.fields.length) return undefined;
  return fields.map((f) => {
    const field: Field = { name: String(f.name) };
    if (typeof f.type === 'string') field.type = f.type;
    const description = typeof f.description === 'string' ? f.description : typeof f.title === 'string' ? f.title : undefined;
    if (description) field.description = description.replace(/\s+/g, ' ').trim();
    if (typeof f.unit === 'string') field.unit = f.unit;
    return field;
  });
}

function fieldLines(fields: Field[]): string {
  return fields
    .map((f) => {
      const qualifiers = [f.type, f.unit].filter(Boolean).join(', ');
      return `- \`${f.name}\`${qualifiers ? ` (${qualifiers})` : ''}${f.description ? `: ${f.description}` : ''}`;
    })
    .join('\n');
}

/** A JSON Schema: it says so (`$schema` names json-schema.org), or it is an object schema whose properties are all schemas. */
export function isJsonSchema(json: unknown): boolean {
  if (!isObject(json)) return false;
  if (typeof json.$schema === 'string' && /json-schema\.org/i.test(json.$schema)) return true;
  if (json.type !== 'object' || !isObject(json.properties)) return false;
  const properties = Object.values(json.properties);
  return properties.length > 0 && properties.every((p) => isObject(p) && (typeof p.type === 'string' || Array.isArray(p.type) || typeof p.$ref === 'string'));
}

/** A schema's own words for a property: its description, else its title unless a generator's (`The Name Schema`). */
function schemaText(schema: Json): string | undefined {
  const description = typeof schema.description === 'string' ? schema.description : undefined;
  const title = typeof schema.title === 'string' && !/^the\b.*\bschema$/i.test(schema.title.trim()) ? schema.title : undefined;
  const text = description ?? title;
  return text ? text.replace(/\s+/g, ' ').trim() : undefined;
}

/** One line per property, nested ones by their dotted path (`time.raw`), items of arrays of objects under `name[]`. */
function schemaLines(schema: Json, prefix: string, depth: number, lines: string[]): void {
  if (depth > 12 || !isObject(schema.properties)) return;
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
  for (const [key, property] of Object.entries(schema.properties)) {
    if (!isObject(property)) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    const type = typeof property.type === 'string' ? property.type : Array.isArray(property.type) ? property.type.join(' or ') : undefined;
    const items = isObject(property.items) ? property.items : undefined;
    const itemType = items && typeof items.type === 'string' ? items.type : undefined;
    const qualifiers = [type === 'array' && itemType ? `array of ${itemType}` : type, required.has(key) ? 'required' : ''].filter(Boolean).join(', ');
    const text = schemaText(property) ?? (items ? schemaText(items) : undefined);
    lines.push(`- \`${path}\`${qualifiers ? ` (${qualifiers})` : ''}${text ? `: ${text}` : ''}`);
    schemaLines(property, path, depth + 1, lines);
    if (items) schemaLines(items, `${path}[]`, depth + 1, lines);
  }
}

/** BigQuery's column types (legacy and standard SQL names), as a table schema file writes them. */
const BIGQUERY_TYPES = /^(STRING|BYTES|INTEGER|INT64|FLOAT|FLOAT64|NUMERIC|BIGNUMERIC|DECIMAL|BIGDECIMAL|BOOLEAN|BOOL|TIMESTAMP|DATE|TIME|DATETIME|INTERVAL|GEOGRAPHY|JSON|RECORD|STRUCT|RANGE)$/;

/**
 * A BigQuery table schema as `bq show --schema` writes it and `bq load` reads it: an array of `{name, type, mode,
 * description}` objects, every type one of BigQuery's. Its fields (nested RECORD fields by their dotted path), or none.
 */
function bigQueryFields(json: unknown, prefix = '', depth = 0): Field[] | undefined {
  if (!Array.isArray(json) || json.length === 0 || depth > 8) return undefined;
  const fields: Field[] = [];
  for (const f of json) {
    if (!isObject(f) || typeof f.name !== 'string' || typeof f.type !== 'string' || !BIGQUERY_TYPES.test(f.type.toUpperCase())) return undefined;
    if (f.mode !== undefined && (typeof f.mode !== 'string' || !/^(NULLABLE|REQUIRED|REPEATED)$/i.test(f.mode))) return undefined;
    const name = prefix ? `${prefix}.${f.name}` : f.name;
    const field: Field = { name, type: [f.type, typeof f.mode === 'string' ? f.mode.toLowerCase() : ''].filter(Boolean).join(', ') };
    if (typeof f.description === 'string' && f.description.trim() !== '') field.description = f.description.replace(/\s+/g, ' ').trim();
    fields.push(field);
    if (Array.isArray(f.fields)) fields.push(...(bigQueryFields(f.fields, name, depth + 1) ?? []));
  }
  return fields;
}

/** The descriptor as a document, or undefined when the JSON is not a Data Package, a Table Schema, a BigQuery table schema nor a JSON Schema. */
export function descriptorDocument(file: string, sizeBytes: number, json: unknown): DataDocument | undefined {
  const bigQuery = bigQueryFields(json);
  if (bigQuery) {
    const title = file.split('/').pop() ?? file;
    return { name: file, sourceFile: file, title, sizeBytes, sections: [{ heading: title, level: 1, text: `BigQuery table schema: the columns of a table of the data files in this folder.

${fieldLines(bigQuery)}` }] };
  }
  if (!isObject(json)) return undefined;
  const sections: DocumentSection[] = [];
  const title = typeof json.title === 'string' ? json.title : typeof json.name === 'string' ? json.name : (file.split('/').pop() ?? file);
  const fields = fieldsOf(json);
  if (fields) {
    sections.push({ heading: title, level: 1, text: `Table Schema: the columns of the data files in this folder.\n\n${fieldLines(fields)}` });
    return { name: file, sourceFile: file, title, sizeBytes, sections };
  }
  if (isJsonSchema(json)) {
    const lines: string[] = [];
    schemaLines(json, '', 0, lines);
    const intro = [typeof json.description === 'string' ? json.description : '', 'JSON Schema: the structure of the JSON files it describes, one line per property.'].filter(Boolean).join('\n\n');
    sections.push({ heading: title, level: 1, text: `${intro}\n\n${lines.join('\n')}` });
    return { name: file, sourceFile: file, title, sizeBytes, sections };
  }
  if (!Array.isArray(json.resources)) return undefined;
  const resources = json.resources.filter(isObject);
  if (resources.length === 0 || !resources.some((r) => fieldsOf(r.schema))) return undefined;
  const intro = [typeof json.description === 'string' ? json.description : '', typeof json.license === 'string' ? `Licence: ${json.license}` : '']
    .filter(Boolean)
    .join('\n\n');
  sections.push({ heading: title, level: 1, text: intro || 'Data Package: the files of this folder and their columns.' });
  for (const resource of resources) {
    const path = typeof resource.path === 'string' ? resource.path : Array.isArray(resource.path) ? resource.path.filter((p) => typeof p === 'string').join(', ') : '';
    const name = typeof resource.name === 'string' ? resource.name : path || 'resource';
    const resourceFields = fieldsOf(resource.schema);
    const lines = [path ? `File: \`${path}\`` : '', typeof resource.description === 'string' ? resource.description : '', resourceFields ? fieldLines(resourceFields) : '']
      .filter(Boolean)
      .join('\n\n');
    sections.push({ heading: path ? `${name} (${path})` : name, level: 2, text: lines });
  }
  return { name: file, sourceFile: file, title, sizeBytes, sections };
}
