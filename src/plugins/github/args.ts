// The pull request a code-review tool is about, read from its (already validated) `key` argument.
import { parseNumberedKey, type Args } from '../kit/index.js';

/** The pull request number of `args.key`: "#45", 45, "!45" or the pull request's URL. */
export const pullNumber = (args: Args): number => parseNumberedKey(args.key, 'merge_request');
