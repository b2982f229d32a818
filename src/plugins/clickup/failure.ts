// ClickUp's failures in plain words: its error bodies ({"err", "ECODE"}), its 401 OAUTH_ codes, its rate limit.
import { PluginError } from '../../contract/index.js';
import { type HttpFailure, providerError } from '../kit/index.js';

export const PROVIDER = 'ClickUp';

/** A ClickUp error body: `err` is the message, `ECODE` a code such as OAUTH_023 or ITEM_015. */
export interface ClickUpErrorBody {
  err?: unknown;
  ECODE?: unknown;
}

/** What a failed request says, before it becomes the agent's error. */
export interface ClickUpFailure extends HttpFailure {
  ecode?: string;
}

/** What the request was about and which variable the token came from, for messages. */
export interface FailureTarget {
  target: string;
  token: string | undefined;
  tokenEnv: string;
}

const inRange = (code: number, low: number, high: number) => code >= low && code <= high;

/**
 * The documented 401 codes (developer.clickup.com "Common errors"): OAUTH_017 no Authorization header;
 * OAUTH_019, 021, 025, 077 token not found (revoked or regenerated); OAUTH_023, 026, 027 and 029-045 the
 * workspace was not authorized for this token.
 */
export function explainOauthCode(ecode: string | undefined, tokenEnv: string): string | undefined {
  const number = /^OAUTH_(\d{3})$/.exec(ecode ?? '')?.[1];
  if (number === undefined) return undefined;
  const code = Number(number);
  if (code === 17) return `the request carried no token; set ${tokenEnv} to a personal token (pk_…)`;
  if ([19, 21, 25, 77].includes(code)) {
    return `the token was not found: it is wrong, or was revoked or regenerated; put a current personal token (ClickUp Settings → Apps) in ${tokenEnv}`;
  }
  if (code === 23 || code === 26 || code === 27 || inRange(code, 29, 45)) {
    return `the token is not authorized for this workspace: its user must belong to the workspace that holds the list (or re-authorize the workspace for the app)`;
  }
  return undefined;
}

/** The agent's error for a failure; the token is cut from anything the server said. */
export function clickupError(failure: ClickUpFailure, about: FailureTarget): PluginError {
  const { target, token, tokenEnv } = about;
  const clean = (text: string) => (token ? text.replaceAll(token, '[redacted]') : text);
  if (failure.status === 401) {
    const plain = explainOauthCode(failure.ecode, tokenEnv);
    const said = failure.apiMessage ? ` ("${clean(failure.apiMessage)}")` : '';
    const code = failure.ecode ? ` ${failure.ecode}` : '';
    const why = plain ?? `check the token in ${tokenEnv}`;
    return new PluginError(
      'invalid_input',
      `${PROVIDER} refused the token for ${target} (401${code}${said}): ${why}`,
    );
  }
  const words =
    failure.ecode && failure.apiMessage ? `${failure.apiMessage} (${failure.ecode})` : failure.apiMessage;
  return providerError(
    { ...failure, ...(words === undefined ? {} : { apiMessage: words }) },
    { provider: PROVIDER, target, ...(token === undefined ? {} : { token }) },
  );
}

/** Reads `{"err", "ECODE"}` from a failed response's text; other text (an HTML 404) is kept short. */
export function readErrorBody(text: string): { apiMessage?: string; ecode?: string } {
  try {
    const body = JSON.parse(text) as ClickUpErrorBody | null;
    const apiMessage = typeof body?.err === 'string' ? body.err : undefined;
    const ecode = typeof body?.ECODE === 'string' ? body.ECODE : undefined;
    return { ...(apiMessage ? { apiMessage } : {}), ...(ecode ? { ecode } : {}) };
  } catch {
    const trimmed = text.trim();
    return trimmed && !trimmed.startsWith('<') ? { apiMessage: trimmed.slice(0, 300) } : {};
  }
}
