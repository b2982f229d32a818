import { describe, expect, it } from 'vitest';
import { ENRICHED_ENUM_MARKER } from '../src/contract/index.js';
import { EditableToolSchema } from '../src/enrich/index.js';

function richSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://example.test/tools/create_issue.json',
    'x-custom': { owner: 'tracker', tags: ['a', 'b'] },
    type: 'object',
    $defs: {
      user: {
        type: 'object',
        properties: { id: { type: 'string', pattern: '^[0-9]+$' }, name: { type: 'string' } },
        required: ['id'],
        additionalProperties: false,
      },
    },
    definitions: { legacy: { type: 'integer', minimum: 0 } },
    properties: {
      title: { type: 'string', minLength: 1, 'x-custom': 1 },
      assignee: { $ref: '#/$defs/user' },
      due: { type: 'string', format: 'date-time' },
      priority: { type: 'string', enum: ['low', 'high'] },
      labels: { type: 'array', items: { type: 'string' }, uniqueItems: true },
      target: {
        oneOf: [
          { type: 'object', properties: { project: { type: 'string' } }, required: ['project'] },
          { type: 'object', properties: { board: { type: 'integer' } }, required: ['board'] },
        ],
      },
      meta: {
        type: 'object',
        properties: {
          source: { type: 'string', pattern: '^[a-z]+$' },
          nested: { type: 'object', properties: { deep: { anyOf: [{ type: 'string' }, { type: 'null' }] } } },
        },
        required: ['source'],
        additionalProperties: false,
      },
      legacy: { $ref: '#/definitions/legacy' },
    },
    required: ['title', 'priority'],
    anyOf: [{ required: ['assignee'] }, { required: ['target'] }],
    allOf: [{ not: { required: ['due', 'legacy'] } }],
    additionalProperties: false,
    'x-foo': null,
  };
}

const create = (inputSchema = richSchema(), extra: { description?: string } = {}): EditableToolSchema =>
  new EditableToolSchema({ inputSchema, ...extra });

// Everything in the schema except the named params, as text, so other keywords must stay byte-identical.
function without(schema: Record<string, unknown>, ...params: string[]): string {
  const copy = structuredClone(schema);
  const props = copy.properties as Record<string, unknown>;
  for (const name of params) props[name] = '<edited>';
  return JSON.stringify(copy);
}

describe('EditableToolSchema round trip', () => {
  it('returns an unedited schema unchanged, key order included', () => {
    const input = richSchema();
    const json = create(input).toJSON();
    expect(json).toEqual(input);
    expect(JSON.stringify(json)).toBe(JSON.stringify(input));
  });

  it('keeps the key order of a schema whose keywords come in an unusual order', () => {
    const input = { required: ['b'], properties: { b: { type: 'string' }, a: {} }, type: 'object', 'x-z': 1 };
    expect(JSON.stringify(create(input).toJSON())).toBe(JSON.stringify(input));
  });

  it('leaves every other keyword byte-identical when one parameter is edited', () => {
    const input = richSchema();
    const schema = create(input);
    schema.setEnum('priority', ['low', 'medium', 'high']);
    schema.setDefault('priority', 'medium');
    schema.setParamDescription('priority', 'How urgent');
    const json = schema.toJSON();
    expect(without(json, 'priority')).toBe(without(input, 'priority'));
    expect(JSON.stringify(json.properties && (json.properties as Record<string, unknown>).priority)).toBe(
      JSON.stringify({
        type: 'string',
        enum: ['low', 'medium', 'high'],
        [ENRICHED_ENUM_MARKER]: true,
        default: 'medium',
        description: 'How urgent',
      }),
    );
  });

  it('never mutates the input, whatever is edited', () => {
    const input = richSchema();
    const before = JSON.stringify(input);
    const schema = create(input);
    schema.setEnum('labels', ['x']);
    schema.addParam('extra', { type: 'number' }, { required: true });
    schema.removeParams(['due', 'title']);
    schema.renameParam('assignee', 'owner');
    schema.setRequired('legacy');
    schema.setDefault('meta', { source: 'a' });
    expect(JSON.stringify(input)).toBe(before);
  });

  it('does not share objects with the values it was given or returns', () => {
    const schema = create({ type: 'object', properties: {} });
    const definition = { type: 'object', properties: { a: { type: 'string' } } };
    const fallback = { a: 'x' };
    schema.addParam('p', definition);
    schema.setDefault('p', fallback);
    definition.properties.a.type = 'number';
    fallback.a = 'changed';
    (schema.param('p') as { type: string }).type = 'array';
    (schema.toJSON().properties as Record<string, unknown>).p = 'gone';
    expect(schema.param('p')).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      default: { a: 'x' },
    });
  });

  it('keeps the description and annotations separate from the input descriptor', () => {
    const annotations = { readOnlyHint: false, title: 'Create' };
    const schema = new EditableToolSchema({
      inputSchema: { type: 'object' },
      description: 'Makes one',
      annotations,
    });
    schema.setDescription('Makes an issue');
    schema.setAnnotations({ readOnlyHint: true, idempotentHint: true });
    expect(schema.description()).toBe('Makes an issue');
    expect(schema.annotations()).toEqual({ readOnlyHint: true, title: 'Create', idempotentHint: true });
    expect(annotations).toEqual({ readOnlyHint: false, title: 'Create' });
  });

  it('has no description or annotations when the tool had none', () => {
    const schema = create();
    expect(schema.description()).toBeUndefined();
    expect(schema.annotations()).toBeUndefined();
    schema.setAnnotations({ destructiveHint: true });
    expect(schema.annotations()).toEqual({ destructiveHint: true });
  });
});

describe('EditableToolSchema parameters', () => {
  it('reads parameters as copies, in schema order', () => {
    const schema = create();
    expect(schema.paramNames()).toEqual([
      'title',
      'assignee',
      'due',
      'priority',
      'labels',
      'target',
      'meta',
      'legacy',
    ]);
    expect(schema.param('assignee')).toEqual({ $ref: '#/$defs/user' });
    expect(schema.param('nope')).toBeUndefined();
    expect(schema.param('constructor')).toBeUndefined();
    expect(schema.param('__proto__')).toBeUndefined();
  });

  it('has no parameters when the schema has no properties', () => {
    const schema = create({ type: 'object' });
    expect(schema.paramNames()).toEqual([]);
    expect(() => schema.setEnum('a', [1])).toThrow('no parameter "a" to set an enum on; parameters: (none)');
  });

  it('adds a parameter at the end, creating properties and required when missing', () => {
    const schema = create({ type: 'object', 'x-a': 1 });
    schema.addParam('q', { type: 'string' }, { required: true });
    expect(JSON.stringify(schema.toJSON())).toBe(
      JSON.stringify({ type: 'object', 'x-a': 1, properties: { q: { type: 'string' } }, required: ['q'] }),
    );
  });

  it('replaces a parameter in place and keeps its required membership unless told', () => {
    const schema = create();
    schema.addParam('title', { type: 'string', maxLength: 10 });
    expect(schema.paramNames().indexOf('title')).toBe(0);
    expect(schema.param('title')).toEqual({ type: 'string', maxLength: 10 });
    expect(schema.toJSON().required).toEqual(['title', 'priority']);
    schema.addParam('title', { type: 'string' }, { required: false });
    expect(schema.toJSON().required).toEqual(['priority']);
    schema.addParam('due', { type: 'string' }, { required: true });
    expect(schema.toJSON().required).toEqual(['priority', 'due']);
  });

  it('removes parameters and their required entries, ignoring missing ones', () => {
    const input = richSchema();
    const schema = create(input);
    schema.removeParams(['priority', 'missing', 'due']);
    const json = schema.toJSON();
    expect(Object.keys(json.properties as object)).toEqual([
      'title',
      'assignee',
      'labels',
      'target',
      'meta',
      'legacy',
    ]);
    expect(json.required).toEqual(['title']);
    expect(json.anyOf).toEqual(input.anyOf);
  });

  it('deletes the required key when removing empties it, but keeps a required list that was already empty', () => {
    const schema = create();
    schema.removeParams(['title', 'priority']);
    expect('required' in schema.toJSON()).toBe(false);
    const empty = create({ type: 'object', properties: { a: {} }, required: [] });
    empty.removeParams(['a']);
    expect(empty.toJSON()).toEqual({ type: 'object', properties: {}, required: [] });
    const unlisted = create({ type: 'object', properties: { a: {} } });
    unlisted.setRequired('a', false);
    expect(unlisted.toJSON()).toEqual({ type: 'object', properties: { a: {} } });
  });

  it('sets and clears required, without duplicates', () => {
    const schema = create();
    schema.setRequired('due');
    schema.setRequired('due');
    schema.setRequired('title', false);
    expect(schema.toJSON().required).toEqual(['priority', 'due']);
    schema.setRequired('missing', false);
    schema.setRequired('priority', false);
    schema.setRequired('due', false);
    expect('required' in schema.toJSON()).toBe(false);
  });

  it('sets a default and a description on a parameter', () => {
    const schema = create();
    schema.setDefault('labels', ['a']);
    schema.setParamDescription('labels', 'Tags to add');
    expect(schema.param('labels')).toEqual({
      type: 'array',
      items: { type: 'string' },
      uniqueItems: true,
      default: ['a'],
      description: 'Tags to add',
    });
  });

  it('names the missing parameter and the ones there are when an edit cannot be made', () => {
    const schema = create({ type: 'object', properties: { a: {}, b: {} } });
    const list = 'parameters: a, b';
    expect(() => schema.setEnum('priority', ['x'])).toThrow(
      `no parameter "priority" to set an enum on; ${list}`,
    );
    expect(() => schema.addEnumValues('p', ['x'])).toThrow(`no parameter "p" to add enum values to; ${list}`);
    expect(() => schema.setRequired('p')).toThrow(`no parameter "p" to make required; ${list}`);
    expect(() => schema.setDefault('p', 1)).toThrow(`no parameter "p" to set a default on; ${list}`);
    expect(() => schema.setParamDescription('p', 'x')).toThrow(`no parameter "p" to describe; ${list}`);
    expect(() => schema.renameParam('p', 'q')).toThrow(`no parameter "p" to rename to "q"; ${list}`);
    expect(() => schema.renameParam('a', 'b')).toThrow(
      'cannot rename parameter "a" to "b": a parameter "b" already exists',
    );
    expect(() => schema.setEnum('p', [])).toThrow(Error);
  });
});

describe('EditableToolSchema enums', () => {
  it('puts the enum on the parameter and marks it as enriched', () => {
    const schema = create();
    schema.setEnum('priority', ['P1', 'P2']);
    expect(schema.param('priority')).toEqual({
      type: 'string',
      enum: ['P1', 'P2'],
      [ENRICHED_ENUM_MARKER]: true,
    });
    expect(ENRICHED_ENUM_MARKER).toBe('x-foresight-enriched');
  });

  it('puts the enum on the items of an array parameter, and the marker on the parameter', () => {
    const schema = create();
    schema.setEnum('labels', ['bug', 'feature']);
    expect(schema.param('labels')).toEqual({
      type: 'array',
      items: { type: 'string', enum: ['bug', 'feature'] },
      uniqueItems: true,
      [ENRICHED_ENUM_MARKER]: true,
    });
    const nullable = create({ type: 'object', properties: { l: { type: ['array', 'null'], items: {} } } });
    nullable.addEnumValues('l', [1]);
    expect(nullable.param('l')).toEqual({
      type: ['array', 'null'],
      items: { enum: [1] },
      [ENRICHED_ENUM_MARKER]: true,
    });
  });

  it('gives an array parameter without an items schema one to hold the enum', () => {
    const schema = create({ type: 'object', properties: { l: { type: 'array' } } });
    schema.setEnum('l', ['a', 'b']);
    expect(schema.param('l')).toEqual({
      type: 'array',
      [ENRICHED_ENUM_MARKER]: true,
      items: { enum: ['a', 'b'] },
    });
  });

  it('adds enum values in order, skipping ones already there', () => {
    const schema = create();
    schema.addEnumValues('priority', ['high', 'urgent', 'low', 'urgent', 'none']);
    expect(schema.param('priority')).toEqual({
      type: 'string',
      enum: ['low', 'high', 'urgent', 'none'],
      [ENRICHED_ENUM_MARKER]: true,
    });
    schema.addEnumValues('labels', ['a']);
    schema.addEnumValues('labels', ['b', 'a']);
    expect((schema.param('labels')?.items as { enum: unknown[] }).enum).toEqual(['a', 'b']);
  });

  it('tells values apart by type and compares objects by content', () => {
    const schema = create({ type: 'object', properties: { v: { enum: [1, '1', null, { a: 1 }] } } });
    schema.addEnumValues('v', ['1', 1, 'null', null, { a: 1 }, '{"a":1}', { a: 2 }, true]);
    expect(schema.param('v')?.enum).toEqual([1, '1', null, { a: 1 }, 'null', '{"a":1}', { a: 2 }, true]);
  });
});

describe('EditableToolSchema renames', () => {
  it('keeps the position and required membership of a renamed parameter', () => {
    const schema = create();
    schema.layer = 2;
    schema.renameParam('priority', 'urgency');
    schema.renameParam('due', 'due_at');
    expect(schema.paramNames()).toEqual([
      'title',
      'assignee',
      'due_at',
      'urgency',
      'labels',
      'target',
      'meta',
      'legacy',
    ]);
    expect(schema.toJSON().required).toEqual(['title', 'urgency']);
    expect(schema.param('urgency')).toEqual({ type: 'string', enum: ['low', 'high'] });
    expect(schema.renames).toEqual([
      { layer: 2, from: 'priority', to: 'urgency' },
      { layer: 2, from: 'due', to: 'due_at' },
    ]);
  });

  it('records the layer of each rename', () => {
    const schema = create();
    schema.renameParam('title', 'summary');
    schema.layer = 1;
    schema.renameParam('summary', 'headline');
    expect(schema.renames).toEqual([
      { layer: 0, from: 'title', to: 'summary' },
      { layer: 1, from: 'summary', to: 'headline' },
    ]);
  });

  it('follows renames forward to the name the agent sees', () => {
    const schema = create();
    schema.renameParam('title', 'summary');
    schema.renameParam('summary', 'headline');
    schema.renameParam('due', 'due_at');
    expect(schema.agentName('title')).toBe('headline');
    expect(schema.agentName('summary')).toBe('headline');
    expect(schema.agentName('due')).toBe('due_at');
    expect(schema.agentName('labels')).toBe('labels');
    expect(schema.agentName('unknown')).toBe('unknown');
  });
});

describe('EditableToolSchema editedBy', () => {
  it('names the last layer that changed what a parameter accepts, by its plugin-side name', () => {
    const schema = create();
    schema.setEnum('priority', ['P1']);
    schema.layer = 1;
    schema.setParamDescription('title', 'only a description');
    schema.renameParam('priority', 'urgency');
    schema.layer = 2;
    schema.setDefault('urgency', 'P1');
    expect(schema.editedBy('priority')).toBe(2);
    expect(schema.editedBy('urgency')).toBeUndefined();
    expect(schema.editedBy('title')).toBeUndefined();
  });

  it('counts removing, adding and un-requiring a parameter', () => {
    const schema = create();
    schema.layer = 1;
    schema.removeParams(['due']);
    schema.layer = 2;
    schema.addParam('format', { type: 'string' });
    schema.layer = 3;
    schema.setRequired('title', false);
    expect([schema.editedBy('due'), schema.editedBy('format'), schema.editedBy('title')]).toEqual([1, 2, 3]);
  });
});
