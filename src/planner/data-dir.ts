// Where the planner keeps what it learns: the per-user data directory of each platform, or FORESIGHT_DATA_DIR.
import { homedir } from 'node:os';
import path from 'node:path';

/** The state file's name inside the data directory. */
export const PLANNER_STATE_FILE_NAME = 'planner-state.json';

function pathsFor(platform: NodeJS.Platform): path.PlatformPath {
  return platform === 'win32' ? path.win32 : path.posix;
}

/** An environment variable that is set to something; an empty value counts as unset, as shells mean it. */
function setting(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/**
 * Foresight's per-user data directory: `FORESIGHT_DATA_DIR` when set (relative to the working
 * directory); else on macOS `~/Library/Application Support/foresight`, on Windows
 * `%LOCALAPPDATA%\foresight` (or `~\AppData\Local\foresight`), and elsewhere
 * `$XDG_DATA_HOME/foresight` (or `~/.local/share/foresight`). The home directory is `HOME`
 * (`USERPROFILE` on Windows) when set, else the OS's answer. Paths are built with the target
 * platform's separators, so the Windows answer is right even when computed elsewhere (in tests).
 */
export function foresightDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const paths = pathsFor(platform);
  const explicit = setting(env, 'FORESIGHT_DATA_DIR');
  if (explicit !== undefined) return paths.resolve(explicit);
  if (platform === 'win32') {
    const localAppData = setting(env, 'LOCALAPPDATA');
    if (localAppData !== undefined) return paths.join(localAppData, 'foresight');
    return paths.join(setting(env, 'USERPROFILE') ?? homedir(), 'AppData', 'Local', 'foresight');
  }
  const home = setting(env, 'HOME') ?? homedir();
  if (platform === 'darwin') return paths.join(home, 'Library', 'Application Support', 'foresight');
  // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
  const xdg = setting(env, 'XDG_DATA_HOME');
  if (xdg !== undefined && paths.isAbsolute(xdg)) return paths.join(xdg, 'foresight');
  return paths.join(home, '.local', 'share', 'foresight');
}

/** The default planner state file: `planner-state.json` in `foresightDataDir(env, platform)`. */
export function plannerStateFile(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  return pathsFor(platform).join(foresightDataDir(env, platform), PLANNER_STATE_FILE_NAME);
}
