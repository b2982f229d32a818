// The io.modelcontextprotocol/tasks extension for 2026-07-28 clients: a long call of a task-capable tool becomes a
// task the client polls (tasks/get), answers questions of (tasks/update) and cancels (tasks/cancel).
export { TaskStore, type TaskStoreOptions } from './store.js';
export { type TaskPolicy, type TaskSupport, taskEscalation, taskSupportOf } from './admission.js';
export { registerTaskMethods } from './methods.js';
export { withoutTaskSupport } from './legacy-list.js';
export { TASKS_EXTENSION, isCreateTaskResult } from './wire.js';
