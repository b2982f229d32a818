// A plugin whose tools and prompt ask the client for input through the plugin contract (ctx.elicit, createMessage,
// listRoots), counting how often each call ran from its start, so tests can tell a resumed call from a replayed one.
import { type Plugin, type ToolDescriptor, definePlugin } from '../../src/index.js';
import { askFor, askToConfirm, confirmedIn } from '../../src/plugins/conformance/forms.js';

export interface AskingPlugin {
  plugin: Plugin;
  /** How many times each tool's call began (work before the question runs again on a replay). */
  starts: Map<string, number>;
}

const CONFIRM = askToConfirm('ok', 'Go ahead?');

export function askingPlugin(id = 'ask'): AskingPlugin {
  const starts = new Map<string, number>();
  const began = (name: string) => starts.set(name, (starts.get(name) ?? 0) + 1);
  const plugin = definePlugin({
    id,
    version: '1.0.0',
    build: () => ({
      tools: (): ToolDescriptor[] => [
        {
          name: 'confirm',
          description:
            'Asks the user to confirm (one question, a numbered key), then says what they answered.',
          inputSchema: { type: 'object', properties: { what: { type: 'string' } } },
        },
        {
          name: 'two_steps',
          description: 'Asks for a name, then for a colour: two rounds.',
          inputSchema: { type: 'object', properties: {} },
        },
        {
          name: 'all_at_once',
          description: 'Asks a question, the model and the roots in one round.',
          inputSchema: { type: 'object', properties: {} },
        },
        {
          name: 'endless',
          description: 'Never has enough: asks one more question each round.',
          inputSchema: { type: 'object', properties: {} },
        },
        {
          name: 'same_key_twice',
          description: 'Asks two questions at once under one key.',
          inputSchema: { type: 'object', properties: {} },
        },
        {
          name: 'no_questions',
          description: 'Answers at once.',
          inputSchema: { type: 'object', properties: {} },
        },
      ],
      callTool: async (name, args, ctx) => {
        began(name);
        if (name === 'no_questions') return { content: [{ type: 'text', text: 'done' }] };
        if (name === 'endless') {
          for (let round = 1; ; round += 1) await ctx.elicit({ ...CONFIRM, message: `Question ${round}?` });
        }
        if (name === 'same_key_twice') {
          await Promise.all([ctx.elicit(CONFIRM, { key: 'k' }), ctx.elicit(CONFIRM, { key: 'k' })]);
          return { content: [{ type: 'text', text: 'unreachable' }] };
        }
        if (name === 'confirm') {
          const answer = await ctx.elicit({
            ...CONFIRM,
            message: `Go ahead with ${String(args.what ?? 'it')}?`,
          });
          return { content: [{ type: 'text', text: `confirmed: ${confirmedIn(answer, 'ok')}` }] };
        }
        if (name === 'two_steps') {
          const ask = (field: string) => askFor(field, `Your ${field}?`);
          const first = await ctx.elicit(ask('name'), { key: 'name' });
          const second = await ctx.elicit(ask('colour'), { key: 'colour' });
          return {
            content: [
              {
                type: 'text',
                text: `${String(first.content?.name)} likes ${String(second.content?.colour)}`,
              },
            ],
          };
        }
        const [answer, completion, roots] = await Promise.all([
          ctx.elicit(CONFIRM),
          ctx.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }],
            maxTokens: 5,
          }),
          ctx.listRoots?.() ?? Promise.resolve({ roots: [] }),
        ]);
        const said = completion.content.type === 'text' ? completion.content.text : '?';
        return {
          content: [{ type: 'text', text: `${answer.action} / ${said} / ${roots.roots.length} roots` }],
        };
      },
      prompts: () => [{ name: 'ask_prompt', description: 'Asks for a topic first.' }],
      getPrompt: async (_name, _args, ctx) => {
        const answer = await ctx.elicit(askFor('topic', 'Topic?'));
        return {
          messages: [
            { role: 'user', content: { type: 'text', text: `About ${String(answer.content?.topic)}` } },
          ],
        };
      },
    }),
  });
  return { plugin, starts };
}
