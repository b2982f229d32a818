// The MRTR round trip's upstream: an SDK v2 low-level Server over stdio (both eras) with one tool, `ask`, that
// asks the client one question and then answers the `text` it was given. On 2026-07-28 the question is an
// `input_required` result the client fulfils by retrying the call; on the 2025 handshake it is an
// elicitation/create request sent during the call. An answer other than `{ ok: true }` fails the call.
// Usage: node ask-once.js
import { Server, type Tool, acceptedContent, inputRequired } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const QUESTION = {
  message: 'Go ahead?',
  requestedSchema: {
    type: 'object' as const,
    properties: { ok: { type: 'boolean' as const } },
    required: ['ok'],
  },
};
const TOOLS: Tool[] = [
  {
    name: 'ask',
    description: 'Asks the client one question, then answers with the text it was given',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
];

const answer = (text: string, ok: boolean) =>
  ok ? { content: [{ type: 'text' as const, text }] } : { content: [], isError: true };

function build(): Server {
  const server = new Server({ name: 'ask-once', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', async () => ({ tools: TOOLS }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const text = String(request.params.arguments?.text ?? '');
    // A 2026-07-28 request carries the _meta envelope (its version, the client's capabilities); a 2025 one none.
    if (ctx.mcpReq.envelope === undefined) {
      const reply = await ctx.mcpReq.elicitInput(QUESTION);
      return answer(text, reply.action === 'accept' && reply.content?.ok === true);
    }
    const reply = acceptedContent(ctx.mcpReq.inputResponses, 'ok');
    if (reply === undefined) return inputRequired({ inputRequests: { ok: inputRequired.elicit(QUESTION) } });
    return answer(text, reply.ok === true);
  });
  return server;
}

const handle = serveStdio(build);

// Exit when the client closes stdin, as Foresight does (the exit also writes a --cpu-prof profile).
process.stdin.once('end', () => void handle.close().then(() => process.exit(0)));
