// Reads a V8 .cpuprofile (node --cpu-prof) and charges its samples to areas of code: each sample goes to the
// innermost Foresight module or SDK package on its stack, so that zod, crypto, native writes and promise hooks
// count for the code that called them; samples with no such frame go to GC or Node's own internals.
import { readFileSync } from 'node:fs';

export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface LoadedProfile {
  frameOf(sample: number): CallFrame;
  /** The frames of a sample's stack, innermost first. */
  stack(sample: number): CallFrame[];
  /** Sample ids, in order. */
  samples: number[];
  /** Microsecond timestamp of each sample (V8's monotonic clock: comparable across processes). */
  times: number[];
}

export function loadProfile(file: string): LoadedProfile {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stacks = new Map<number, CallFrame[]>();
  const frameOf = (id: number): CallFrame => {
    const node = byId.get(id);
    if (!node) throw new Error(`${file}: sample of unknown node ${id}`);
    return node.callFrame;
  };
  const stack = (id: number): CallFrame[] => {
    let frames = stacks.get(id);
    if (!frames) {
      frames = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) frames.push(frameOf(at));
      stacks.set(id, frames);
    }
    return frames;
  };
  let now = profile.startTime;
  const times = profile.timeDeltas.map((delta) => (now += delta));
  return { frameOf, stack, samples: profile.samples, times };
}

/** The first and last sample times whose stack holds a frame `matches` accepts (the echo tool: calls ran then). */
export function markerWindow(
  profile: LoadedProfile,
  matches: (frame: CallFrame) => boolean,
): [number, number] | undefined {
  let first: number | undefined;
  let last: number | undefined;
  profile.samples.forEach((sample, i) => {
    if (!profile.stack(sample).some(matches)) return;
    first ??= profile.times[i];
    last = profile.times[i];
  });
  return first === undefined || last === undefined ? undefined : [first, last];
}

/** The whole profile's first and last sample times. */
export function wholeWindow(profile: LoadedProfile): [number, number] {
  return [profile.times[0] ?? 0, profile.times.at(-1) ?? 0];
}

const FORESIGHT_FILE =
  /\/dist\/((?:protocol|host|enrich|planner|format|config|plugins|cli)\/[^/]+\.js|[^/]+\.js)$/;
const SDK_PACKAGE = /node_modules\/@modelcontextprotocol\/([^/]+)\//;
const BENCH_FILE = /\/((?:servers|fixtures)\/[^/]+\.js)$/;

/** The code a frame belongs to: `protocol/http.js`, `SDK server`, `bench servers/raw-echo-http.js`; else undefined. */
function ownerOf(frame: CallFrame): string | undefined {
  const { url } = frame;
  if (url.includes('node_modules')) {
    const sdk = SDK_PACKAGE.exec(url)?.[1];
    return sdk === undefined ? undefined : `SDK ${sdk}`;
  }
  const ours = FORESIGHT_FILE.exec(url)?.[1];
  if (ours !== undefined) return ours;
  const bench = BENCH_FILE.exec(url)?.[1];
  return bench === undefined ? undefined : `bench ${bench}`;
}

export interface AreaTimes {
  /** Microseconds on CPU (idle samples left out) in the window. */
  busyUs: number;
  /** By owner (see ownerOf), `(garbage collector)`, or `(node internals)` for samples with no owner. */
  byOwner: Map<string, number>;
  /** Self time of `node:async_hooks` code (the promise hooks AsyncLocalStorage turns on), wherever charged. */
  asyncHooksUs: number;
}

export function chargeAreas(profile: LoadedProfile, fromUs: number, toUs: number): AreaTimes {
  const byOwner = new Map<string, number>();
  let busyUs = 0;
  let asyncHooksUs = 0;
  profile.samples.forEach((sample, i) => {
    const time = profile.times[i] ?? Number.NaN;
    if (time < fromUs || time > toUs) return;
    // A sample stands for the time until the next one.
    const us = (profile.times[i + 1] ?? time) - time;
    const leaf = profile.frameOf(sample);
    if (leaf.functionName === '(idle)') return;
    busyUs += us;
    if (leaf.url.includes('async_hooks')) asyncHooksUs += us;
    let owner: string | undefined;
    for (const frame of profile.stack(sample)) if ((owner = ownerOf(frame)) !== undefined) break;
    owner ??= leaf.functionName === '(garbage collector)' ? '(garbage collector)' : '(node internals)';
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + us);
  });
  return { busyUs, byOwner, asyncHooksUs };
}

// Call-time frames only: the echo itself and the plugin's callTool (not the fixture's tool list, built at start).
const echoCode = (frame: CallFrame) =>
  frame.functionName === 'echoResult' ||
  (frame.url.endsWith('/fixtures/echo-plugin.js') && frame.functionName === 'callTool');
/** The SDK's dispatch of every request. */
const sdkRequest = (frame: CallFrame) =>
  frame.functionName === '_onrequest' && frame.url.includes('@modelcontextprotocol');

/**
 * Both sides of an eras cell profiled alone (raw first). Each side's window opens at its own first echo call
 * (the sides warm up one after the other) and closes at the last request either side handled (the rounds end
 * together); the echo frames cannot close it, as the tool is inlined into its caller once optimised and
 * vanishes from the samples. A short run may hold no sample of the echo: its whole profile is then used.
 */
export function cellAreas(rawFile: string, foresightFile: string): [AreaTimes, AreaTimes] {
  const profiles = [loadProfile(rawFile), loadProfile(foresightFile)] as const;
  const end = Math.max(
    ...profiles.map((profile) => markerWindow(profile, sdkRequest)?.[1] ?? wholeWindow(profile)[1]),
  );
  const [raw, foresight] = profiles.map((profile, i) => {
    const start = markerWindow(profile, echoCode)?.[0];
    if (start === undefined)
      process.stderr.write(`cpu-profile: no sample of the echo tool in ${[rawFile, foresightFile][i]}\n`);
    return chargeAreas(profile, start ?? wholeWindow(profile)[0], end);
  }) as [AreaTimes, AreaTimes];
  return [raw, foresight];
}
