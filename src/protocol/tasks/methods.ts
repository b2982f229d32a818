// The extension's methods on a 2026-07-28 server: tasks/get, tasks/update and tasks/cancel. A request that does not
// declare the extension is refused (-32021); a task is found only by the principal that made it.
import type { Server, ServerContext } from '@modelcontextprotocol/server';
import type * as z from 'zod';
import { errors } from '../../contract/index.js';
import { envelopeOf } from '../caller.js';
import { type WireErrorOptions, requestFailure } from '../wire-errors.js';
import type { TaskStore } from './store.js';
import {
  CancelTaskParamsSchema,
  GetTaskParamsSchema,
  UpdateTaskParamsSchema,
  declaresTasks,
} from './wire.js';

/**
 * Registers the three methods for `principal` (who asks on this server), with their params schemas: the SDK serves
 * the extension's methods on 2026-07-28 only when they come with one.
 */
export function registerTaskMethods(
  server: Server,
  store: TaskStore,
  principal: string,
  options: WireErrorOptions,
): void {
  /** The capability gate first, so that a client without the extension learns what it lacks, whatever it sent. */
  const handle =
    <P>(method: string, answer: (params: P, ctx: ServerContext) => Record<string, unknown>) =>
    async (params: P, ctx: ServerContext) => {
      try {
        if (!declaresTasks(envelopeOf(ctx).clientCapabilities))
          throw errors.capabilityMissing('tasks', method);
        return answer(params, ctx);
      } catch (error) {
        throw requestFailure(error, method, options, undefined, 'modern');
      }
    };

  server.setRequestHandler(
    'tasks/get',
    { params: GetTaskParamsSchema },
    handle<z.infer<typeof GetTaskParamsSchema>>('tasks/get', ({ taskId }) =>
      store.view(store.get(taskId, principal)),
    ),
  );
  // Both acknowledgements are empty: the client sees their effect on its next tasks/get.
  server.setRequestHandler(
    'tasks/update',
    { params: UpdateTaskParamsSchema },
    handle<z.infer<typeof UpdateTaskParamsSchema>>('tasks/update', ({ taskId }, ctx) => {
      // The SDK lifts inputResponses out of every request's params, as it does for multi round-trip retries (and
      // keeps only bare answers: an entry shaped like a JSON-RPC response is left out, so never answers anything).
      const responses = ctx.mcpReq.inputResponses;
      if (responses === undefined)
        throw errors.invalidArguments(
          'tasks/update',
          'inputResponses is required (answers by input request key)',
        );
      store.get(taskId, principal).update(responses);
      return {};
    }),
  );
  server.setRequestHandler(
    'tasks/cancel',
    { params: CancelTaskParamsSchema },
    // A finished task is left as it was: cancelling it again is the same empty acknowledgement.
    handle<z.infer<typeof CancelTaskParamsSchema>>('tasks/cancel', ({ taskId }) => {
      store.get(taskId, principal).cancel(errors.cancelled(`task "${taskId}"`));
      return {};
    }),
  );
}
