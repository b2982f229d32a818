// Jira Software's boards and sprints: get_board_sprints, assign_to_sprint, and sprint names → ids for the `sprint` field.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { PluginError, type RequestContext, type SprintShape } from '../../contract/index.js';
import { DEFAULT_LIMIT, type Args, type ToolHandler, int, shapedResult, str } from '../kit/index.js';
import { type ToolDeps, keyArg } from './tool-io.js';

interface SprintJson {
  id: number;
  name: string;
  state: string;
  originBoardId?: number;
  startDate?: string;
  endDate?: string;
  completeDate?: string;
  goal?: string;
}

interface AgilePage<T> {
  values?: T[];
  isLast?: boolean;
  total?: number;
}

/** Issues Jira Agile's POST /sprint/{id}/issue takes at once. */
const MAX_ISSUES_PER_MOVE = 50;

const STATES: Readonly<Record<string, string | undefined>> = {
  open: 'active,future',
  active: 'active',
  future: 'future',
  closed: 'closed',
  all: undefined,
};

function sprintShape(raw: SprintJson): SprintShape {
  const shape: SprintShape = { id: String(raw.id), name: raw.name, state: raw.state };
  if (raw.originBoardId !== undefined) shape.board = String(raw.originBoardId);
  if (raw.startDate) shape.startAt = raw.startDate;
  if (raw.endDate) shape.endAt = raw.endDate;
  if (raw.completeDate) shape.completeAt = raw.completeDate;
  if (raw.goal) shape.goal = raw.goal;
  return shape;
}

export function createSprintTools(deps: ToolDeps) {
  const { client, settings } = deps;
  let defaultBoard: number | undefined = settings.board;

  /** The board asked for (an id or a name), else the configured one, else the first board of the first project. */
  async function boardId(value: unknown, ctx: RequestContext): Promise<number> {
    const asked = typeof value === 'number' ? String(value) : str(value);
    if (asked !== undefined && /^\d+$/.test(asked)) return Number(asked);
    if (asked === undefined && defaultBoard !== undefined) return defaultBoard;
    const project = settings.projects[0] ?? '';
    const answer = await client.agile<AgilePage<{ id: number; name: string }>>(
      `the boards of ${project}`,
      ctx,
      {
        path: '/board',
        query:
          asked === undefined ? { projectKeyOrId: project, maxResults: 50 } : { name: asked, maxResults: 50 },
      },
    );
    const boards = answer.values ?? [];
    const board =
      asked === undefined ? boards[0] : boards.find((b) => b.name.toLowerCase() === asked.toLowerCase());
    if (board === undefined) {
      throw new PluginError(
        asked === undefined ? 'not_found' : 'invalid_input',
        asked === undefined
          ? `project ${project} has no agile board; set board in the jira plugin's config`
          : `board: no board named ${JSON.stringify(asked)}; boards: ${boards.map((b) => `${b.name} (${b.id})`).join(', ') || 'none'}`,
      );
    }
    if (asked === undefined) defaultBoard = board.id;
    return board.id;
  }

  async function sprintsOf(
    board: number,
    state: string | undefined,
    startAt: number,
    maxResults: number,
    ctx: RequestContext,
  ) {
    return client.agile<AgilePage<SprintJson>>(`the sprints of board ${board}`, ctx, {
      path: `/board/${board}/sprint`,
      query: { startAt, maxResults, ...(state === undefined ? {} : { state }) },
    });
  }

  /** A sprint by id, or by name among the board's active and future sprints. */
  async function resolveSprint(value: unknown, ctx: RequestContext): Promise<SprintJson> {
    const text = typeof value === 'number' ? String(value) : (str(value) ?? '');
    if (/^\d+$/.test(text)) {
      return client.agile<SprintJson>(`sprint ${text}`, ctx, { path: `/sprint/${text}` });
    }
    const board = await boardId(undefined, ctx);
    const sprints = (await sprintsOf(board, 'active,future', 0, 50, ctx)).values ?? [];
    const found = sprints.find((s) => s.name.toLowerCase() === text.trim().toLowerCase());
    if (found) return found;
    throw new PluginError(
      'invalid_input',
      `sprint: no active or future sprint ${JSON.stringify(text)} on board ${board}; sprints: ${sprints.map((s) => `${s.name} (${s.id})`).join(', ') || 'none'}`,
    );
  }

  async function getBoardSprints(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const board = await boardId(args.board, ctx);
    const offset = int(args.offset, 0);
    const limit = int(args.limit, DEFAULT_LIMIT);
    const answer = await sprintsOf(board, STATES[str(args.state) ?? 'open'], offset, limit, ctx);
    const items = (answer.values ?? []).map(sprintShape);
    const total = answer.isLast === true ? offset + items.length : answer.total;
    return shapedResult({
      kind: 'sprint_list',
      items,
      page: { offset, limit, ...(total === undefined ? {} : { total }) },
    });
  }

  async function assignToSprint(args: Args, ctx: RequestContext): Promise<CallToolResult> {
    const keys = (Array.isArray(args.keys) ? args.keys : []).map((k: unknown) => keyArg(deps, k, 'keys'));
    const sprint = await resolveSprint(args.sprint, ctx);
    // Jira Agile moves at most 50 issues per request: more go in batches, in order.
    const moved: string[] = [];
    for (let start = 0; start < keys.length; start += MAX_ISSUES_PER_MOVE) {
      const batch = keys.slice(start, start + MAX_ISSUES_PER_MOVE);
      try {
        await client.agile(`sprint ${sprint.id}`, ctx, {
          method: 'POST',
          path: `/sprint/${sprint.id}/issue`,
          body: { issues: batch },
        });
      } catch (error) {
        if (moved.length === 0 || !(error instanceof PluginError)) throw error;
        // Earlier batches are in the sprint already: say which, so the agent retries only the rest.
        throw new PluginError(
          error.kind,
          `moved ${moved.join(', ')} to sprint ${sprint.name} (${sprint.id}), but not ${keys.slice(start).join(', ')}: ${error.message}`,
        );
      }
      moved.push(...batch);
    }
    return shapedResult(
      { kind: 'sprint_list', items: [sprintShape(sprint)] },
      `Moved ${keys.join(', ')} to sprint ${sprint.name} (${sprint.id})`,
    );
  }

  return {
    tools: { get_board_sprints: getBoardSprints, assign_to_sprint: assignToSprint } satisfies Record<
      string,
      ToolHandler
    >,
    resolveSprint,
  };
}
