/**
 * The list of skills the page shows: each loadable skill the caller may use
 * (catalogue-view.ts `skillDirectoryFor`), in the order `load_skill`'s
 * search ranks them for the query (skill-directory.ts `search`), so the page
 * and the tool agree. Every value from the folder goes through `text`.
 */
import type { DirectoryEntry } from '../catalogue/skill-directory.js';
import { escapeHtml, text } from './html.js';

/** The link to a skill's own view. */
export function skillHref(name: string): string {
  return `?skill=${encodeURIComponent(name)}`;
}

function facts(entry: DirectoryEntry): string {
  const parts: string[] = [];
  const args = entry.prompt.arguments ?? [];
  if (args.length > 0) parts.push(`${args.length} argument${args.length === 1 ? '' : 's'}: ${args.map((a) => text(a.name)).join(', ')}`);
  if (entry.skill.locales.length > 0) parts.push(`locales: ${entry.skill.locales.map((l) => text(l.locale)).join(', ')}`);
  parts.push(`${entry.skill.files.length} file${entry.skill.files.length === 1 ? '' : 's'}`);
  return parts.join(' · ');
}

function item(entry: DirectoryEntry): string {
  const name = entry.prompt.name;
  return [
    '<li class="skill">',
    `<h3><a href="${escapeHtml(skillHref(name))}">${text(name)}</a></h3>`,
    `<p>${text(entry.skill.description)}</p>`,
    `<p class="facts">${facts(entry)}</p>`,
    '</li>',
  ].join('');
}

/** The list view: how many match, then one item per skill. */
export function renderSkillList(entries: readonly DirectoryEntry[], query: string, total: number): string {
  const count =
    query === '' ? `${total} skill${total === 1 ? '' : 's'}` : `${entries.length} of ${total} skill${total === 1 ? '' : 's'} match “${text(query)}”`;
  const list = entries.length === 0 ? '<p class="empty">No skill matches.</p>' : `<ul class="skills">${entries.map(item).join('')}</ul>`;
  return `<p class="count" role="status">${count}</p>${list}`;
}
