// Shapes a workspace tool: zod schemas published as JSON Schema, arguments parsed before the handler sees them.
import type { CallToolResult } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { errors, type RequestContext, type ToolDescriptor } from '../../contract/index.js';
import { describeIssues } from './issues.js';

export interface WorkspaceTool {
  readonly descriptor: ToolDescriptor;
  call(args: Record<string, unknown>, ctx: RequestContext): Promise<CallToolResult>;
}

export interface ToolAnswer<S> {
  text: string;
  structured: S;
}

interface ToolSpec<I extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
}

type JsonObjectSchema = ToolDescriptor['inputSchema'];

/** `$schema` is dropped: MCP implies it, and validators configured for another draft would reject it. */
function jsonSchemaOf(schema: z.ZodObject, io: 'input' | 'output'): JsonObjectSchema {
  const { $schema: _draft, ...json } = z.toJSONSchema(schema, { io, target: 'draft-7' }) as Record<
    string,
    unknown
  >;
  return { ...json, type: 'object', properties: json.properties as Record<string, object> };
}

function describeTool(spec: ToolSpec<z.ZodObject>): ToolDescriptor {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: jsonSchemaOf(spec.input, 'input'),
    annotations: { title: spec.title, readOnlyHint: true, openWorldHint: false },
    category: 'workspace',
  };
}

/** The host validates too, but against a schema enrichers may have edited; this is what the handler relies on. */
function parseArgs<I extends z.ZodObject>(spec: ToolSpec<I>, args: Record<string, unknown>): z.output<I> {
  const parsed = spec.input.safeParse(args);
  if (!parsed.success) throw errors.invalidArguments(spec.name, describeIssues(parsed.error));
  return parsed.data;
}

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(
  spec: ToolSpec<I> & {
    output: O;
    run(args: z.output<I>, ctx: RequestContext): Promise<ToolAnswer<z.output<O>>>;
  },
): WorkspaceTool {
  return {
    descriptor: { ...describeTool(spec), outputSchema: jsonSchemaOf(spec.output, 'output') },
    async call(args, ctx) {
      const answer = await spec.run(parseArgs(spec, args), ctx);
      return { content: [{ type: 'text', text: answer.text }], structuredContent: answer.structured };
    },
  };
}

/** For tools whose whole answer is text a structured copy would only double (read_file). */
export function defineTextTool<I extends z.ZodObject>(
  spec: ToolSpec<I> & { run(args: z.output<I>, ctx: RequestContext): Promise<string> },
): WorkspaceTool {
  return {
    descriptor: describeTool(spec),
    async call(args, ctx) {
      return { content: [{ type: 'text', text: await spec.run(parseArgs(spec, args), ctx) }] };
    },
  };
}
