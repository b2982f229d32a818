// The operations endpoints beside /mcp: /healthz (alive), /readyz (fit for traffic) and /metrics (Prometheus).
import type { IncomingMessage, ServerResponse } from 'node:http';

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';
export const METRICS_PATH = '/metrics';

/** What the HTTP server exposes of the host's state; the host builds it (protocol/ knows no metrics library). */
export interface OpsEndpoints {
  /** /readyz's verdict; every other member of it is the body: names and states, never a secret. */
  readiness(): Promise<{ ready: boolean }>;
  /** Absent: no /metrics (`[server] metrics = false`). */
  metrics?: {
    scrape(): Promise<{ contentType: string; text: string }>;
    /** True: /metrics asks for no token and no allowed Host (`metrics_public`); default it asks what /mcp asks. */
    public: boolean;
  };
}

/** Probes take GET (and HEAD, which some balancers send); a probe's answer is never cached on the way. */
function refuseMethod(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return false;
  res.setHeader('allow', 'GET, HEAD');
  res.writeHead(405).end();
  return true;
}

function sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : JSON.stringify(body));
}

/** GET /healthz: 200 while the process answers at all; it reads nothing, so it stays cheap under load. */
export function serveHealth(req: IncomingMessage, res: ServerResponse): void {
  if (refuseMethod(req, res)) return;
  sendJson(req, res, 200, { status: 'ok' });
}

/** GET /readyz: 200 when ready, else 503 with what is not (a draining process says so, and Retry-After). */
export async function serveReady(
  req: IncomingMessage,
  res: ServerResponse,
  ops: OpsEndpoints,
  retryAfterS: number,
): Promise<void> {
  if (refuseMethod(req, res)) return;
  const { ready, ...rest } = await ops.readiness();
  if (!ready) res.setHeader('retry-after', String(retryAfterS));
  sendJson(req, res, ready ? 200 : 503, { status: ready ? 'ready' : 'not_ready', ...rest });
}

/** GET /metrics, once the caller is let in: the Prometheus text exposition. */
export async function serveMetrics(
  req: IncomingMessage,
  res: ServerResponse,
  metrics: NonNullable<OpsEndpoints['metrics']>,
): Promise<void> {
  if (refuseMethod(req, res)) return;
  const { contentType, text } = await metrics.scrape();
  res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : text);
}
