// Tools that answer with fixed content: one per content type the suite checks, the error result, and the 2020-12 schema.
import { NO_ARGUMENTS, errorResult, textResult, type FixtureTool } from './fixture-tool.js';
import { RED_PIXEL_PNG_BASE64, SILENT_WAV_BASE64 } from './media.js';

const READ_ONLY = { readOnlyHint: true, openWorldHint: false };

/** Kept byte-for-byte: json-schema-2020-12 checks that $schema, $defs and additionalProperties survive tools/list. */
/** Uses 2020-12 keywords a host could strip: composition, conditionals, an anchor, a reference. */
const JSON_SCHEMA_2020_12_INPUT = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object' as const,
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

export const CONTENT_TOOLS: readonly FixtureTool[] = [
  {
    descriptor: {
      name: 'test_simple_text',
      description: 'Returns one text block.',
      inputSchema: NO_ARGUMENTS,
      annotations: READ_ONLY,
    },
    run: async () => textResult('This is a simple text response for testing.'),
  },
  {
    descriptor: {
      name: 'test_image_content',
      description: 'Returns one image block: a 1×1 red PNG.',
      inputSchema: NO_ARGUMENTS,
      annotations: READ_ONLY,
    },
    run: async () => ({ content: [{ type: 'image', data: RED_PIXEL_PNG_BASE64, mimeType: 'image/png' }] }),
  },
  {
    descriptor: {
      name: 'test_audio_content',
      description: 'Returns one audio block: a short silent WAV.',
      inputSchema: NO_ARGUMENTS,
      annotations: READ_ONLY,
    },
    run: async () => ({ content: [{ type: 'audio', data: SILENT_WAV_BASE64, mimeType: 'audio/wav' }] }),
  },
  {
    descriptor: {
      name: 'test_embedded_resource',
      description: 'Returns one embedded text resource.',
      inputSchema: NO_ARGUMENTS,
      annotations: READ_ONLY,
    },
    run: async () => ({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    }),
  },
  {
    descriptor: {
      name: 'test_multiple_content_types',
      description: 'Returns a text, an image and an embedded JSON resource block, in that order.',
      inputSchema: NO_ARGUMENTS,
      annotations: READ_ONLY,
    },
    run: async () => ({
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: RED_PIXEL_PNG_BASE64, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  },
  {
    descriptor: {
      name: 'test_error_handling',
      description: 'Always fails: returns a tool error result (isError: true) with a message.',
      inputSchema: NO_ARGUMENTS,
      annotations: READ_ONLY,
    },
    // Returned rather than thrown: the suite checks this exact result, not how the host reports a plugin failure.
    run: async () => errorResult('This tool intentionally returns an error for testing'),
  },
  {
    descriptor: {
      name: 'json_schema_2020_12_tool',
      description: 'Tool with JSON Schema 2020-12 features ($schema, $defs, $ref, additionalProperties).',
      inputSchema: JSON_SCHEMA_2020_12_INPUT,
      annotations: READ_ONLY,
    },
    run: async (args) => textResult(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`),
  },
  {
    descriptor: {
      name: 'test_custom_header',
      description:
        'Echoes a region and a shard; over HTTP a 2026-07-28 client mirrors them into Mcp-Param-Region and Mcp-Param-Shard.',
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', description: 'Any text', 'x-mcp-header': 'Region' },
          shard: { type: 'integer', description: 'Any whole number', 'x-mcp-header': 'Shard' },
        },
        required: ['region'],
      },
      annotations: READ_ONLY,
    },
    run: async (args) => textResult(`region=${String(args.region)} shard=${String(args.shard ?? '-')}`),
  },
];
