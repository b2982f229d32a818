// Public surface of the protocol area: sessions on the SDK's low-level Server, stdio and Streamable HTTP.
export {
  createSession,
  type BuiltinResource,
  type Session,
  type SessionOptions,
  type ToolService,
} from './session.js';
export { serveStdio, type StdioServing } from './stdio.js';
export { serveHttp, type HttpServeOptions, type HttpServing } from './http.js';
export { toolCallFailure, requestFailure, type WireErrorOptions } from './wire-errors.js';
