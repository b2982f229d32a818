// How long tests wait for something that will happen (a server listening, a process exiting, a condition coming
// true). These are not measures of speed: on a busy 2-core CI machine a start-up that takes 300 ms quietly can
// take many seconds, and a wait that gives up early is a flaky test. Speed is measured in bench/, not here.

/** Longest wait for one event that is expected to come. */
export const PATIENCE_MS = 60_000;
/** A test or hook's whole budget: several such waits in a row. */
export const TEST_TIMEOUT_MS = 3 * PATIENCE_MS;
