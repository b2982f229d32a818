// Tools as one agent stream sees them: the enrichment pipeline, with the planner in front when it is on.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { McpTool } from '../contract/index.js';
import type { CallEnvironment } from '../host/index.js';
import type { Connection, ProtocolEra } from './caller.js';

/** The agent stream a ToolService is opened for: who it is, and (when known) how it is connected. */
export interface StreamOrigin {
  id: string;
  principal: string;
  era?: ProtocolEra;
  transport?: Connection['transport'];
}

export interface ToolService {
  listTools(): McpTool[];
  callTool(name: string, args: Record<string, unknown>, env?: CallEnvironment): Promise<CallToolResult>;
  /** Returns the unsubscribe. */
  onToolsChanged(listener: () => void): () => void;
  /** Called once when the stream ends. */
  dispose?(): void;
}
