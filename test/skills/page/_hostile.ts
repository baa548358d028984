/**
 * A skills folder whose every text tries to run script in the catalogue page:
 * raw HTML, `javascript:` links spelt many ways, `onerror=` images, a
 * `</script>` in the description, bidi overrides, an argument, a locale and
 * a file name carrying markup. Every payload sets `window.__pwned`, so a
 * browser test can tell whether any ran. Written for these tests alone.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const PWN = 'window.__pwned=1';

const DESCRIPTION = `Tries </script><script>${PWN}</script> and <img src=x onerror="${PWN}"> and \u202Eevil\u202C in one line.`;

const BODY = `# Hostile <script>${PWN}</script>

<script>${PWN}</script>
<img src="x" onerror="${PWN}">
<svg onload="${PWN}"></svg>
<iframe src="javascript:${PWN}"></iframe>
<a href="javascript:${PWN}">raw anchor</a>

[plain](javascript:${PWN})
[upper](JAVASCRIPT:${PWN})
[entity](jav&#x61;script:${PWN})
[tabbed](java&#x09;script:${PWN})
[vb](vbscript:msgbox(1))
[data](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19wd25lZD0xPC9zY3JpcHQ+)
[file](file:///etc/passwd)
<javascript:${PWN}>
![pic](javascript:${PWN})
![quote](x" onerror="${PWN})
[ref link][r]

[r]: javascript:${PWN}

[fine](https://example.com/docs) and [relative](references/guide.md) and [the French text](./SKILL.fr.md).

\`\`\`html
<script>${PWN}</script>
\`\`\`

Zero\u200Bwidth and ＜script＞fullwidth＜/script＞ and \u2066isolate\u2069.
`;

const FILES: Record<string, string> = {
  'hostile/SKILL.md': `---\nname: hostile\ndescription: '${DESCRIPTION.replaceAll("'", "''")}'\narguments:\n  - name: target\n    description: '<b onmouseover="${PWN}">bold</b>'\n---\n${BODY}`,
  'hostile/SKILL.fr.md': `---\nname: hostile\ndescription: 'Français <img src=x onerror="${PWN}">'\n---\nBonjour <script>${PWN}</script>\n`,
  'hostile/references/"><img src=x onerror=alert(1)>.md': '# odd name\n',
  'calm/SKILL.md': '---\nname: calm\ndescription: A calm skill that writes release notes.\n---\nWrite the notes.\n',
};

/** Writes the folder; returns it and how to remove it. */
export function writeHostileFolder(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'skillport-hostile-'));
  for (const [path, content] of Object.entries(FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
