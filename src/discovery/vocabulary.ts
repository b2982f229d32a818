// The field's synonyms: groups of words and phrases that name the same thing in different catalogs (a GitHub
// "pull request" is a GitLab "merge request"). Each group gets one token that documents and queries share.
import { stem, words } from './terms.js';

/**
 * The groups, first entry naming the group. General words of software teams' tools (code hosting, trackers, CI,
 * chat, documents, calendars) and of everyday services, not any one catalog's names.
 */
const GROUPS: readonly (readonly string[])[] = [
  ['pull request', 'pr', 'merge request', 'mr', 'pullrequest', 'mergerequest', 'patch', 'changeset'],
  ['issue', 'ticket', 'bug', 'work item', 'story', 'defect'],
  ['task', 'todo', 'to do', 'action item', 'chore'],
  ['ci', 'pipeline', 'build', 'workflow', 'github actions', 'continuous integration', 'job run'],
  ['repository', 'repo', 'project', 'codebase', 'source code'],
  ['comment', 'note', 'reply', 'discussion', 'remark'],
  ['assignee', 'assign', 'assigned', 'owner', 'responsible'],
  ['label', 'tag', 'tagged', 'labelled', 'labeled', 'category'],
  ['branch', 'ref'],
  ['commit', 'revision', 'sha'],
  ['user', 'member', 'person', 'people', 'account', 'teammate', 'colleague'],
  ['team', 'group', 'organization', 'org', 'workspace'],
  ['search', 'find', 'lookup', 'look up', 'query', 'locate', 'discover'],
  ['create', 'new', 'add', 'file', 'raise', 'start', 'make'],
  ['delete', 'remove', 'erase', 'drop'],
  ['update', 'edit', 'modify', 'change', 'rename', 'set'],
  ['close', 'resolve', 'resolved', 'done', 'finish', 'complete'],
  ['list', 'show', 'display', 'view', 'browse', 'enumerate'],
  ['get', 'fetch', 'retrieve', 'read', 'load', 'obtain'],
  ['review', 'approve', 'approval', 'code review', 'reviewer'],
  ['deploy', 'deployment', 'release', 'ship', 'rollout', 'environment'],
  ['error', 'exception', 'failure', 'failed', 'crash', 'incident', 'fail', 'broken'],
  ['status', 'state', 'progress', 'stage'],
  ['priority', 'urgency', 'severity', 'urgent'],
  ['milestone', 'sprint', 'iteration', 'cycle', 'epic'],
  ['document', 'doc', 'page', 'wiki', 'article', 'note book', 'notebook'],
  ['file', 'attachment', 'upload', 'download'],
  ['message', 'chat', 'post', 'dm', 'direct message', 'channel'],
  ['email', 'mail', 'e mail', 'inbox'],
  ['meeting', 'event', 'calendar', 'appointment', 'schedule', 'invite'],
  ['log', 'logs', 'trace', 'output'],
  ['test', 'tests', 'spec', 'check', 'checks'],
  ['due', 'deadline', 'due date'],
  ['time', 'hours', 'timesheet', 'time tracking', 'worklog', 'time entry'],
  ['picture', 'image', 'photo', 'photograph', 'illustration'],
  ['video', 'movie', 'film', 'clip'],
  ['music', 'song', 'track', 'playlist', 'album'],
  ['recipe', 'cook', 'cooking', 'meal', 'dish', 'food'],
  ['travel', 'trip', 'flight', 'vacation', 'holiday', 'journey'],
  ['hotel', 'accommodation', 'lodging', 'stay'],
  ['shop', 'buy', 'purchase', 'shopping', 'store', 'product', 'order'],
  ['price', 'cost', 'cheap', 'deal', 'discount'],
  ['stock', 'share', 'market', 'finance', 'financial', 'invest', 'investment'],
  ['news', 'headline', 'headlines'],
  ['weather', 'forecast', 'temperature'],
  ['translate', 'translation', 'language'],
  ['job', 'career', 'employment', 'hire', 'hiring', 'resume'],
  ['paper', 'research', 'academic', 'scholar', 'study', 'publication'],
  ['summary', 'summarize', 'summarise', 'tldr', 'overview'],
  ['write', 'writing', 'draft', 'compose', 'essay'],
  ['learn', 'course', 'tutorial', 'lesson', 'education'],
  ['health', 'medical', 'doctor', 'symptom', 'fitness'],
  ['map', 'location', 'place', 'address', 'direction', 'nearby'],
  ['currency', 'exchange', 'convert', 'conversion'],
];

interface Vocabulary {
  /** A stemmed word → the tokens of the groups it is in. */
  single: Map<string, string[]>;
  /** Stemmed phrases of two or more words, with their group's token. */
  phrases: { stems: string[]; token: string }[];
}

function build(): Vocabulary {
  const single = new Map<string, string[]>();
  const phrases: Vocabulary['phrases'] = [];
  for (const group of GROUPS) {
    const token = `~${words(group[0] ?? '').join('_')}`;
    for (const entry of group) {
      const stems = words(entry).map(stem);
      if (stems.length === 1) {
        const key = stems[0] ?? '';
        const tokens = single.get(key) ?? [];
        if (!tokens.includes(token)) tokens.push(token);
        single.set(key, tokens);
      } else if (stems.length > 1) phrases.push({ stems, token });
    }
  }
  return { single, phrases };
}

let vocabulary: Vocabulary | undefined;

function get(): Vocabulary {
  vocabulary ??= build();
  return vocabulary;
}

/** The group tokens of one stemmed word (none when it is in no group). */
export function groupsOf(term: string): readonly string[] {
  return get().single.get(term) ?? [];
}

/** The group tokens of the vocabulary's phrases found, as consecutive words, in a text's stems. */
export function phraseGroups(stems: readonly string[]): string[] {
  const found: string[] = [];
  for (const phrase of get().phrases) {
    const n = phrase.stems.length;
    for (let i = 0; i + n <= stems.length; i += 1) {
      if (phrase.stems.every((s, j) => stems[i + j] === s)) {
        found.push(phrase.token);
        break;
      }
    }
  }
  return found;
}
