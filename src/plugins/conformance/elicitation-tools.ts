// Tools that ask the user for input through the client (elicitation/create): plain, with defaults, and every enum form.
import type { ElicitRequestFormParams } from '@modelcontextprotocol/server';
import {
  NO_ARGUMENTS,
  failedUnlessAborted,
  requireString,
  textResult,
  type FixtureTool,
} from './fixture-tool.js';

type RequestedSchema = ElicitRequestFormParams['requestedSchema'];

/** Field names, types and defaults are what elicitation-sep1034-defaults checks. */
const DEFAULTS_SCHEMA: RequestedSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: {
      type: 'string',
      description: 'User status',
      enum: ['active', 'inactive', 'pending'],
      default: 'active',
    },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  },
  required: [],
};

/** The five enum forms of SEP-1330, under the field names elicitation-sep1330-enums checks. */
const ENUMS_SCHEMA: RequestedSchema = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', description: 'Pick one', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      description: 'Pick one (titled)',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string',
      description: 'Pick one (legacy enumNames)',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: {
      type: 'array',
      description: 'Pick any',
      minItems: 1,
      maxItems: 3,
      items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array',
      description: 'Pick any (titled)',
      minItems: 1,
      maxItems: 3,
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
  required: [],
};

function elicitationTool(
  name: string,
  description: string,
  message: string,
  schema: RequestedSchema,
): FixtureTool {
  return {
    descriptor: { name, description, inputSchema: NO_ARGUMENTS },
    run: async (_args, ctx) => {
      try {
        const result = await ctx.elicit({ mode: 'form', message, requestedSchema: schema });
        return textResult(
          `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`,
        );
      } catch (error) {
        return failedUnlessAborted(ctx, error, 'elicitation/create');
      }
    },
  };
}

export const ELICITATION_TOOLS: readonly FixtureTool[] = [
  {
    descriptor: {
      name: 'test_elicitation',
      description: 'Shows the message to the user and asks for a username and an email (elicitation/create).',
      inputSchema: {
        type: 'object',
        properties: { message: { type: 'string', description: 'The message to show the user' } },
        required: ['message'],
      },
    },
    run: async (args, ctx) => {
      const message = requireString(args, 'message', 'test_elicitation');
      try {
        const result = await ctx.elicit({
          mode: 'form',
          message,
          requestedSchema: {
            type: 'object',
            properties: {
              username: { type: 'string', description: "User's response" },
              email: { type: 'string', description: "User's email address" },
            },
            required: ['username', 'email'],
          },
        });
        return textResult(
          `User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`,
        );
      } catch (error) {
        return failedUnlessAborted(ctx, error, 'elicitation/create');
      }
    },
  },
  elicitationTool(
    'test_elicitation_sep1034_defaults',
    'Asks for a form whose string, integer, number, enum and boolean fields all have defaults (SEP-1034).',
    'Please review and update the form fields with defaults',
    DEFAULTS_SCHEMA,
  ),
  elicitationTool(
    'test_elicitation_sep1330_enums',
    'Asks for a form with every enum form: untitled, titled, legacy enumNames, and both multi-selects (SEP-1330).',
    'Please select options from the enum fields',
    ENUMS_SCHEMA,
  ),
];
