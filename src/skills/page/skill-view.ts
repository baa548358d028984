/**
 * One skill's own view: its description, arguments, locales, files with
 * their sizes, its findings, and SKILL.md rendered (`markdown`: markdown.ts). Shown only
 * for a skill the caller may use: the route looks it up in the caller's
 * directory, so the findings here are of a skill the caller may use.
 */

import type { DirectoryEntry } from '../catalogue/skill-directory.js';
import type { Issue } from '../load/issues.js';
import type { SkillFileRecord } from '../load/skill-record.js';
import { escapeHtml, formatSize, text } from './html.js';
import type { fileAnchor, renderMarkdown } from './markdown.js';

/** markdown.ts, imported by the route with the first skill it shows. */
export interface Markdown {
  readonly renderMarkdown: typeof renderMarkdown;
  readonly fileAnchor: typeof fileAnchor;
}

function section(title: string, body: string): string {
  return `<section><h3>${title}</h3>${body}</section>`;
}

function argumentsOf(entry: DirectoryEntry): string {
  const args = entry.prompt.arguments ?? [];
  if (args.length === 0) return '';
  const rows = args.map(
    (a) => `<tr><td><code>${text(a.name)}</code></td><td>${a.required ? 'required' : 'optional'}</td><td>${text(a.description ?? '')}</td></tr>`,
  );
  return section('Arguments', `<table><thead><tr><th>Name</th><th></th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`);
}

function localesOf(entry: DirectoryEntry): string {
  const locales = entry.skill.locales;
  if (locales.length === 0) return '';
  return section('Locales', `<ul>${locales.map((l) => `<li><code>${text(l.locale)}</code>: ${text(l.description)}</li>`).join('')}</ul>`);
}

/** The files, each row with the id that links to the file in SKILL.md point at (`anchor`). */
function filesOf(files: readonly SkillFileRecord[], anchor: (inSkill: string) => string): string {
  const rows = files.map(
    (f) =>
      `<tr id="${escapeHtml(anchor(f.inSkill))}"><td><code>${text(f.inSkill)}</code></td><td class="size">${formatSize(f.size)}</td><td>${text(f.mimeType)}</td></tr>`,
  );
  return section('Files', `<table><thead><tr><th>Path</th><th>Size</th><th>Type</th></tr></thead><tbody>${rows.join('')}</tbody></table>`);
}

function findingsOf(issues: readonly Issue[]): string {
  if (issues.length === 0) return '';
  const items = issues.map(
    (i) =>
      `<li class="${i.severity}"><strong>${i.severity}</strong> <code>${text(i.path)}${i.line === undefined ? '' : `:${i.line}`}</code> ${text(i.message)} <small>(${text(i.code)})</small></li>`,
  );
  return section('Findings', `<ul class="findings">${items.join('')}</ul>`);
}

/** The view of one skill, with the files and findings its caller may see. */
export function renderSkillView(entry: DirectoryEntry, files: readonly SkillFileRecord[], issues: readonly Issue[], markdown: Markdown): string {
  const skill = entry.skill;
  const env = { files: new Set(files.map((f) => f.inSkill)) };
  return [
    '<article class="skill-view">',
    '<p><a href="?" class="back">← All skills</a></p>',
    `<h2>${text(entry.prompt.name)}</h2>`,
    `<p class="description">${text(skill.description)}</p>`,
    argumentsOf(entry),
    localesOf(entry),
    filesOf(files, markdown.fileAnchor),
    findingsOf(issues),
    section('SKILL.md', `<div class="markdown">${markdown.renderMarkdown(skill.text.slice(skill.bodyOffset), env)}</div>`),
    '</article>',
  ].join('');
}

/** What a skill the caller may not use, or that does not exist, shows: the same words for both. */
export function renderNoSkill(name: string): string {
  return `<article class="skill-view"><p><a href="?" class="back">← All skills</a></p><h2>No skill named “${text(name)}”</h2></article>`;
}
