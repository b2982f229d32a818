// @ts-check
// An example third-party Foresight plugin: a small note store with tools, resources, a resource
// template, a prompt, completion, and a background autosave. docs/writing-plugins.md walks through it.
//
// Mount it from foresight.toml:
//
//   [plugins.notes]
//   module = "./examples/notes-plugin.mjs"   # relative to the config file
//   store = "/home/me/notes.json"            # optional: without it, notes live in memory only
//   autosave_ms = 5000                       # optional: how often unsaved changes are written
//   export_pace_ms = 0                       # optional: pause between notes in export_notes
//
// It imports 'foresight' at run time. Inside this repository that name resolves to the built package
// (run `npm run build` first); a copy kept in a folder without that package gets it from the host that
// loads it (docs/writing-plugins.md, "Where import 'foresight' comes from").
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { PluginError, definePlugin } from 'foresight';

/** @typedef {{ id: string, title: string, body: string, tags: string[], created: string }} Note */
/** @typedef {{ store: string | undefined, autosaveMs: number, exportPaceMs: number }} NotesOptions */

const STYLES = ['bullets', 'paragraph'];
const KNOWN_OPTIONS = ['store', 'autosave_ms', 'export_pace_ms'];

// ---- options ------------------------------------------------------------------------------------

/**
 * ctx.config is this plugin's table from foresight.toml without the host's keys (module, prefix,
 * deadline_ms, deadlines_ms, isolation, enabled). The host does not check it: we do, at build time, so
 * that a mistake stops start-up with `plugin "notes" failed to build: <our message>`.
 * @param {unknown} config
 * @returns {NotesOptions}
 */
function parseOptions(config) {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new Error('options must be a table of keys under [plugins.<name>]');
  }
  const table = /** @type {Record<string, unknown>} */ (config);
  for (const key of Object.keys(table)) {
    if (!KNOWN_OPTIONS.includes(key)) {
      throw new Error(`unknown option "${key}"; the notes plugin takes ${KNOWN_OPTIONS.join(', ')}`);
    }
  }
  const { store, autosave_ms: autosaveMs = 5000, export_pace_ms: exportPaceMs = 0 } = table;
  if (store !== undefined && (typeof store !== 'string' || store === '')) {
    throw new Error(`option "store" must be a file path (got ${JSON.stringify(store)})`);
  }
  if (typeof autosaveMs !== 'number' || !Number.isInteger(autosaveMs) || autosaveMs < 10) {
    throw new Error(
      `option "autosave_ms" must be an integer of at least 10 (got ${JSON.stringify(autosaveMs)})`,
    );
  }
  if (typeof exportPaceMs !== 'number' || !Number.isInteger(exportPaceMs) || exportPaceMs < 0) {
    throw new Error(
      `option "export_pace_ms" must be a non-negative integer (got ${JSON.stringify(exportPaceMs)})`,
    );
  }
  // The host passes paths as written; a relative one resolves against the process's working directory.
  return { store: store === undefined ? undefined : resolve(store), autosaveMs, exportPaceMs };
}

// ---- persistence --------------------------------------------------------------------------------

/**
 * @param {string} file
 * @returns {Promise<Note[]>}
 */
async function loadStore(file) {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return [];
    throw new Error(`cannot read the notes store ${file}: ${messageOf(error)}`);
  }
  try {
    const parsed = JSON.parse(text);
    if (!Array.isArray(parsed?.notes)) throw new Error('it has no "notes" array');
    return parsed.notes;
  } catch (error) {
    throw new Error(`the notes store ${file} is not a notes file: ${messageOf(error)}`);
  }
}

/**
 * Writes to a temporary file first, so a crash mid-write never leaves a truncated store.
 * @param {string} file
 * @param {Note[]} notes
 */
async function writeStore(file, notes) {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ version: 1, notes }, null, 2)}\n`);
  await rename(temporary, file);
}

/** @param {unknown} error */
function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

// ---- catalog ------------------------------------------------------------------------------------

/** @type {import('foresight').ToolDescriptor[]} */
const TOOLS = [
  {
    name: 'add_note',
    title: 'Add a note',
    description: 'Store a new note and return a link to it. The body may be Markdown.',
    inputSchema: {
      type: 'object',
      properties: {
        title: {
          type: 'string',
          minLength: 1,
          maxLength: 200,
          description: 'One-line title, shown in lists.',
        },
        body: { type: 'string', description: 'The note itself; Markdown is fine.' },
        tags: {
          type: 'array',
          items: { type: 'string', pattern: '^[a-z0-9-]+$' },
          description: 'Lowercase tags for filtering, e.g. ["meeting", "q3"].',
        },
      },
      required: ['title', 'body'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  {
    name: 'list_notes',
    title: 'List notes',
    description: 'List the stored notes (id, title, tags), newest last; optionally only those with one tag.',
    inputSchema: {
      type: 'object',
      properties: { tag: { type: 'string', description: 'Only notes with this tag.' } },
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        notes: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              id: { type: 'string' },
              title: { type: 'string' },
              tags: { type: 'array', items: { type: 'string' } },
            },
            required: ['id', 'title', 'tags'],
          },
        },
      },
      required: ['notes'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'get_note',
    title: 'Read a note',
    description: 'Return one note in full. Ids come from list_notes.',
    inputSchema: {
      type: 'object',
      properties: { id: { type: 'string', description: 'The note id, e.g. "3".' } },
      required: ['id'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'delete_note',
    title: 'Delete a note',
    description: 'Delete one note. Asks the user to confirm unless confirm is true.',
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string', description: 'The note id, e.g. "3".' },
        confirm: { type: 'boolean', description: 'Skip the confirmation question. Default false.' },
      },
      required: ['id'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  {
    name: 'export_notes',
    title: 'Export notes as Markdown',
    description: 'Render every note (or those with one tag) into one Markdown document. Reports progress.',
    inputSchema: {
      type: 'object',
      properties: { tag: { type: 'string', description: 'Only notes with this tag.' } },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
];

/** @type {import('@modelcontextprotocol/server').ResourceTemplateType[]} */
const TEMPLATES = [
  {
    uriTemplate: 'note/{id}',
    name: 'note',
    title: 'A note by id',
    description: 'One note as Markdown. The id completes from the stored notes.',
    mimeType: 'text/markdown',
  },
];

/** @type {import('@modelcontextprotocol/server').Prompt[]} */
const PROMPTS = [
  {
    name: 'summarize_notes',
    title: 'Summarize notes',
    description: 'Ask the model to summarize the stored notes, optionally only those with one tag.',
    arguments: [
      {
        name: 'tag',
        description: 'Only notes with this tag; completes from the tags in use.',
        required: false,
      },
      { name: 'style', description: '"bullets" (default) or "paragraph".', required: false },
    ],
  },
];

/** @param {Note} note */
function renderNote(note) {
  const tags = note.tags.length ? `\n\nTags: ${note.tags.map((t) => `#${t}`).join(' ')}` : '';
  return `# ${note.title}\n\n${note.body}${tags}\n`;
}

/** @param {string} value @param {Iterable<string>} candidates */
function startingWith(value, candidates) {
  const prefix = value.toLowerCase();
  return [...candidates].filter((c) => c.toLowerCase().startsWith(prefix));
}

// ---- the plugin ---------------------------------------------------------------------------------

export default definePlugin({
  id: 'notes',
  version: '1.0.0',

  async build(ctx) {
    const options = parseOptions(ctx.config);
    const log = ctx.logger;

    // All state lives inside build(): two instances of this module ([plugins.work], [plugins.home])
    // share the module but must not share notes.
    /** @type {Map<string, Note>} */
    const notes = new Map();
    // Loading here, not in start(), means the first catalog the host reads already lists the notes.
    for (const note of options.store ? await loadStore(options.store) : []) notes.set(note.id, note);
    let nextId = Math.max(0, ...[...notes.keys()].map(Number).filter(Number.isFinite)) + 1;
    let dirty = false;
    /** @type {NodeJS.Timeout | undefined} */
    let autosave;
    // Saves run one after another; `saving` is the tail of that queue, and never rejects.
    let saving = Promise.resolve();

    const save = async (/** @type {string} */ reason) => {
      if (!options.store || !dirty) return;
      dirty = false;
      const snapshot = [...notes.values()];
      try {
        await writeStore(options.store, snapshot);
        log.info({ notes: snapshot.length, reason }, 'notes saved');
      } catch (error) {
        dirty = true;
        log.error({ err: messageOf(error), reason }, 'saving notes failed; will retry');
      }
    };
    const queueSave = (/** @type {string} */ reason) => (saving = saving.then(() => save(reason)));

    /** Every change: mark unsaved, and tell subscribed clients what moved. */
    const changed = (/** @type {string} */ id) => {
      dirty = true;
      ctx.notifyListChanged('resources'); // each note is a listed resource, so the list changed
      ctx.notifyResourceUpdated('index');
      ctx.notifyResourceUpdated(`note/${id}`);
    };

    /** @param {unknown} id */
    const noteOrThrow = (id) => {
      const note = notes.get(String(id));
      // A PluginError's message reaches the client as written; its kind picks the wire form.
      if (!note)
        throw new PluginError('not_found', `no note "${String(id)}"; list_notes shows the ids in use`);
      return note;
    };

    /** @param {unknown} tag */
    const selected = (tag) =>
      [...notes.values()].filter((n) => typeof tag !== 'string' || tag === '' || n.tags.includes(tag));

    const allTags = () => new Set([...notes.values()].flatMap((n) => n.tags));

    /**
     * The slow tool: honours the call's signal (deadline, client cancellation, shutdown) and reports progress.
     * @param {Note[]} chosen
     * @param {import('foresight').RequestContext} rc
     * @returns {Promise<import('@modelcontextprotocol/server').CallToolResult>}
     */
    async function exportNotes(chosen, rc) {
      const parts = [];
      try {
        for (const [index, note] of chosen.entries()) {
          // Rejects as soon as the signal aborts, instead of finishing the pause.
          await sleep(options.exportPaceMs, undefined, { signal: rc.signal });
          parts.push(renderNote(note));
          await rc.reportProgress(index + 1, chosen.length, `exported "${note.title}"`);
        }
      } catch (error) {
        if (!rc.signal.aborted) throw error;
        // The host has already answered the client; stop work and say why in our own log.
        log.info(
          { done: parts.length, of: chosen.length, reason: messageOf(rc.signal.reason) },
          'export stopped',
        );
        throw rc.signal.reason;
      }
      await rc.log('info', { exported: parts.length });
      return { content: [{ type: 'text', text: parts.join('\n---\n\n') || 'No notes to export.' }] };
    }

    return {
      tools: () => TOOLS,
      resourceTemplates: () => TEMPLATES,
      prompts: () => PROMPTS,

      // Local URIs: the host publishes them as <scheme>://index and <scheme>://note/<id>.
      resources: () => [
        { uri: 'index', name: 'index', title: 'All notes', mimeType: 'text/markdown' },
        ...[...notes.values()].map((n) => ({
          uri: `note/${n.id}`,
          name: `note-${n.id}`,
          title: n.title,
          mimeType: 'text/markdown',
        })),
      ],

      async callTool(name, args, rc) {
        // The host has already checked `args` against the tool's inputSchema.
        switch (name) {
          case 'add_note': {
            const id = String(nextId++);
            const tags = Array.isArray(args.tags) ? args.tags.map(String) : [];
            const note = {
              id,
              title: String(args.title),
              body: String(args.body),
              tags,
              created: new Date().toISOString(),
            };
            notes.set(id, note);
            changed(id);
            return {
              content: [
                { type: 'text', text: `Added note ${id}: ${note.title}` },
                // A local URI; the host rewrites it to the published one (notes://note/1).
                {
                  type: 'resource_link',
                  uri: `note/${id}`,
                  name: `note-${id}`,
                  title: note.title,
                  mimeType: 'text/markdown',
                },
              ],
            };
          }
          case 'list_notes': {
            const list = selected(args.tag).map(({ id, title, tags }) => ({ id, title, tags }));
            const text = list.length
              ? list
                  .map((n) => `${n.id}  ${n.title}${n.tags.length ? `  [${n.tags.join(', ')}]` : ''}`)
                  .join('\n')
              : 'No notes yet.';
            return { content: [{ type: 'text', text }], structuredContent: { notes: list } };
          }
          case 'get_note': {
            const note = noteOrThrow(args.id);
            return { content: [{ type: 'text', text: renderNote(note) }] };
          }
          case 'delete_note': {
            const note = noteOrThrow(args.id);
            if (args.confirm !== true) {
              let answer;
              try {
                answer = await rc.elicit({
                  message: `Delete note ${note.id} "${note.title}"?`,
                  requestedSchema: {
                    type: 'object',
                    properties: { delete: { type: 'boolean', title: 'Delete it' } },
                  },
                });
              } catch (error) {
                // No elicitation capability, or a speculative call: ask the agent to confirm instead.
                return {
                  isError: true,
                  content: [
                    {
                      type: 'text',
                      text: `Not deleted: ${messageOf(error)}. Call delete_note again with confirm: true.`,
                    },
                  ],
                };
              }
              if (answer.action !== 'accept' || answer.content?.delete !== true) {
                return {
                  content: [{ type: 'text', text: `Kept note ${note.id}: the user did not confirm.` }],
                };
              }
            }
            notes.delete(note.id);
            changed(note.id);
            return { content: [{ type: 'text', text: `Deleted note ${note.id}: ${note.title}` }] };
          }
          case 'export_notes':
            return exportNotes(selected(args.tag), rc);
          default:
            // The host routes only the names tools() lists, so this is a bug in this file.
            throw new Error(`no tool named "${name}"`);
        }
      },

      async readResource(uri) {
        if (uri === 'index') {
          const lines = [...notes.values()].map((n) => `- [${n.title}](note/${n.id})`);
          return {
            contents: [
              { uri, mimeType: 'text/markdown', text: `# Notes\n\n${lines.join('\n') || 'No notes yet.'}\n` },
            ],
          };
        }
        const match = /^note\/([^/]+)$/.exec(uri);
        const note = match ? notes.get(decodeURIComponent(match[1] ?? '')) : undefined;
        // not_found on resources/read reaches the client as JSON-RPC -32002.
        if (!note) throw new PluginError('not_found', `no notes resource "${uri}"`);
        return { contents: [{ uri, mimeType: 'text/markdown', text: renderNote(note) }] };
      },

      async getPrompt(name, args) {
        if (name !== 'summarize_notes') throw new PluginError('not_found', `no prompt "${name}"`);
        const style = args?.style || 'bullets';
        if (!STYLES.includes(style)) {
          throw new PluginError(
            'invalid_input',
            `style must be one of ${STYLES.join(', ')} (got "${style}")`,
          );
        }
        const chosen = selected(args?.tag);
        if (chosen.length === 0) {
          const tags = [...allTags()].sort();
          throw new PluginError(
            'invalid_input',
            args?.tag
              ? `no notes tagged "${args.tag}"; tags in use: ${tags.join(', ') || 'none'}`
              : 'there are no notes to summarize',
          );
        }
        const ask = style === 'bullets' ? 'as a short bulleted list' : 'in one paragraph';
        return {
          description: `Summary of ${chosen.length} note${chosen.length === 1 ? '' : 's'}`,
          messages: [
            { role: 'user', content: { type: 'text', text: `Summarize the following notes ${ask}.` } },
            // Embedded resources with local URIs; the host rewrites them into the plugin's scheme.
            ...chosen.map((n) => ({
              role: /** @type {const} */ ('user'),
              content: {
                type: /** @type {const} */ ('resource'),
                resource: { uri: `note/${n.id}`, mimeType: 'text/markdown', text: renderNote(n) },
              },
            })),
          ],
        };
      },

      async complete({ ref, argument }) {
        // Refs arrive in local form: the prompt's local name, the template's local URI.
        /** @type {string[]} */
        let values = [];
        if (ref.type === 'ref/resource' && ref.uri === 'note/{id}' && argument.name === 'id') {
          values = startingWith(
            argument.value,
            [...notes.keys()].sort((a, b) => Number(a) - Number(b)),
          );
        } else if (ref.type === 'ref/prompt' && ref.name === 'summarize_notes') {
          if (argument.name === 'tag') values = startingWith(argument.value, [...allTags()].sort());
          if (argument.name === 'style') values = startingWith(argument.value, STYLES);
        }
        // Every match: the host keeps the first 100 and sets hasMore and total.
        return { values };
      },

      async start() {
        // Begin background work and return at once; the host awaits start() under a deadline.
        if (!options.store) {
          log.info({}, 'no store configured; notes live in memory only');
          return;
        }
        autosave = setInterval(() => void queueSave('autosave'), options.autosaveMs);
        autosave.unref(); // never the reason the process stays alive
        // The shutdown signal fires as soon as the host begins to stop, before shutdown() is our turn.
        ctx.shutdown.addEventListener('abort', () => clearInterval(autosave), { once: true });
        log.info({ store: options.store, everyMs: options.autosaveMs }, 'autosave started');
      },

      async shutdown() {
        clearInterval(autosave);
        // Queued behind any save in progress, so the last write holds every change.
        await queueSave('shutdown');
        log.info({ notes: notes.size }, 'autosave stopped');
      },
    };
  },
});
