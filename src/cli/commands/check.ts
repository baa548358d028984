/**
 * `skillport check [DIR...]`: lints skills folders. Every finding is printed
 * with file and line, sorted by path and line, in text and JSON; the exit
 * code is 1 when there are errors (or warnings with --strict), and a summary
 * line ends the report.
 */
import { join } from 'node:path';
import { escapeControls } from '../../index.js';
import { buildCatalogue, type Catalogue, formatIssue, type Issue, isIndexSource, loadGitSkills, loadIndexSkills } from '../../skills.js';
import type { Invocation } from '../args.js';
import { BUNDLED_SKILLS, type CliIo, gitSourceOf, remoteSettings, requireFolders } from '../context.js';
import { emptySources, HOLDS_NOTHING } from '../load-report.js';
import { counted, printJson, printLine } from '../output.js';

/** A finding as `check` reports it: a path a user can open, and always a line. */
type Finding = Issue & { line: number };

/**
 * Findings with a line (1 for what is about a file rather than a key in it:
 * a missing name, an unreadable file) and, with several folders, the path
 * joined to the folder as given, so `a/dup/SKILL.md` and `b/dup/SKILL.md` can
 * be told apart; sorted by that path, then line, else in the loader's order.
 */
function findings(issues: readonly Issue[]): Finding[] {
  const shown = issues.map(
    (issue): Finding => ({
      severity: issue.severity,
      code: issue.code,
      path: issue.folder === undefined ? issue.path : join(issue.folder, issue.path),
      line: issue.line ?? 1,
      message: issue.message,
      ...(issue.folder !== undefined ? { folder: issue.folder } : {}),
    }),
  );
  return shown.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
}

/** The catalogue of a git source's head commit or of an index, its checkout removed after. */
async function remoteCatalogue(source: string, values: Invocation['values'], env: Record<string, string | undefined>): Promise<Catalogue> {
  const { allowOrigins, allowHttp, cacheDir } = remoteSettings(source, values, env, 'check');
  const common = {
    pullIntervalMs: 0,
    tools: false,
    ...(cacheDir !== undefined ? { cacheDir } : {}),
    ...(values.prefix !== undefined ? { prefix: values.prefix } : {}),
  };
  const folder = isIndexSource(source)
    ? await loadIndexSkills(source, { ...common, ...(allowOrigins ? { allowOrigins } : {}), allowHttp: allowHttp === true })
    : await loadGitSkills(source, { ...common, env });
  await folder.close();
  return folder.catalogue;
}

export async function check(invocation: Invocation, io: CliIo, env: Record<string, string | undefined> = {}): Promise<number> {
  const { values } = invocation;
  const git = gitSourceOf(invocation.folders, 'check');
  remoteSettings(git, values, env, 'check');
  if (git === undefined) requireFolders(invocation.folders);
  const folders = invocation.folders.length > 0 ? invocation.folders : [BUNDLED_SKILLS];
  const started = Date.now();
  // A progress line on a terminal for folders that take a while to read.
  const progress = io.stderrIsTty
    ? setInterval(() => io.stderr.write(`\rchecking ${escapeControls(folders.join(', '))}... ${Math.round((Date.now() - started) / 1000)}s`), 500)
    : undefined;
  let issues: Array<Finding | Issue>;
  let counts: { skills: number; prompts: number; files: number };
  try {
    const catalogue =
      git !== undefined ? await remoteCatalogue(git, values, env) : await buildCatalogue(folders, values.prefix !== undefined ? { prefix: values.prefix } : {});
    // Nothing at all to check is a failure: most often the wrong folder. About a folder, the finding has no line.
    const empty = emptySources(catalogue, invocation.folders).map(
      (path): Issue => ({ severity: 'error', code: 'no_skills', path, message: `holds ${HOLDS_NOTHING}` }),
    );
    issues = [...findings(catalogue.issues), ...empty];
    counts = { skills: catalogue.skills.length, prompts: catalogue.prompts.length, files: catalogue.files.size };
  } finally {
    if (progress) {
      clearInterval(progress);
      io.stderr.write('\r\x1b[K');
    }
  }
  const errors = issues.filter((i) => i.severity === 'error').length;
  const warnings = issues.filter((i) => i.severity === 'warning').length;
  const notes = issues.length - errors - warnings;
  const failed = errors > 0 || (values.strict === true && warnings > 0);
  if (values.json) {
    printJson(io.stdout, { ok: !failed, ...counts, errors, warnings, notes, issues });
  } else {
    for (const issue of issues) printLine(io.stdout, formatIssue(issue));
    printLine(
      io.stdout,
      `${failed ? 'FAILED' : 'OK'}: ${counted(counts.skills, 'skill')}, ${counted(counts.prompts, 'prompt')}, ${counted(counts.files, 'file')}; ` +
        `${counted(errors, 'error')}, ${counted(warnings, 'warning')}, ${counted(notes, 'note')}`,
    );
  }
  return failed ? 1 : 0;
}
