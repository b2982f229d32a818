// Markdown to Jira wiki markup (what Server / Data Center takes) and back (what the agent reads).
import { describe, expect, it } from 'vitest';
import { markdownToWiki } from '../src/plugins/jira/wiki-from-markdown.js';
import { wikiToMarkdown } from '../src/plugins/jira/wiki-to-markdown.js';

describe('markdownToWiki', () => {
  it.each([
    ['plain words', 'plain words'],
    ['# Title\n\n## Sub', 'h1. Title\n\nh2. Sub'],
    ['**bold**, *it*, ~~gone~~ and `a{b}`', '*bold*, _it_, -gone- and {{a\\{b\\}}}'],
    ['[site](https://x.example) and <https://y.example>', '[site|https://x.example] and [https://y.example]'],
    ['![logo](https://x.example/a.png)', '!https://x.example/a.png!'],
    ['- one\n- two\n  1. two.a\n  2. two.b', '* one\n* two\n*# two.a\n*# two.b'],
    ['1. first\n2. second', '# first\n# second'],
    ['- [x] done\n- [ ] todo', '* (/) done\n* \\[ \\] todo'],
    ['```ts\nconst a = 1;\n```', '{code:ts}\nconst a = 1;\n{code}'],
    ['> quoted', '{quote}\nquoted\n{quote}'],
    ['---', '----'],
    ['| a | b |\n| - | - |\n| 1 | 2 |', '||a||b||\n|1|2|'],
    ['5 * 3 [not a link] _x_', '5 \\* 3 \\[not a link\\] _x_'],
    ['line one  \nline two', 'line one\nline two'],
  ])('%j', (markdown, wiki) => {
    expect(markdownToWiki(markdown)).toBe(wiki);
  });
});

describe('wikiToMarkdown', () => {
  it.each([
    ['plain words', 'plain words'],
    ['h1. Title\nh3. Sub', '# Title\n### Sub'],
    ['*bold*, _it_, -gone- and {{a*b*}}', '**bold**, *it*, ~~gone~~ and `a*b*`'],
    ['[site|https://x.example] and [https://y.example]', '[site](https://x.example) and <https://y.example>'],
    ['* one\n** nested\n# first\n#* mixed', '- one\n  - nested\n1. first\n  - mixed'],
    ['{code:java}\nint *a* = 1;\n{code}', '```java\nint *a* = 1;\n```'],
    ['{noformat}\nraw _x_\n{noformat}', '```\nraw _x_\n```'],
    ['{quote}\nsaid *so*\n{quote}', '> said **so**'],
    ['bq. short quote', '> short quote'],
    ['||a||b||\n|1|2|', '| a | b |\n| --- | --- |\n| 1 | 2 |'],
    ['----', '---'],
    ['well-known, snake_case_name and 2*3*4', 'well-known, snake_case_name and 2*3*4'],
    ['5 \\* 3', '5 * 3'],
    ['* \\[ \\] todo', '- [ ] todo'],
  ])('%j', (wiki, markdown) => {
    expect(wikiToMarkdown(wiki)).toBe(markdown);
  });
});
