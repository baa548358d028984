/**
 * How each host connects to this server, as the text a person copies and,
 * where the host has one, the link that installs it in one click:
 * - Claude Code: `claude mcp add --transport http NAME URL`;
 * - VS Code: `vscode:mcp/install?` and the server's JSON, URL-encoded
 *   (`{ name, type: 'http', url }`), or its `.vscode/mcp.json` entry;
 * - Cursor: `cursor://anysphere.cursor-deeplink/mcp/install?name=NAME&config=`
 *   and the server's `mcp.json` entry (`{ url }`) as base64 JSON, or that entry;
 * - Claude Desktop: `claude_desktop_config.json` speaks to local servers over
 *   stdio, so the entry bridges with `mcp-remote`;
 * - and the endpoint's URL itself.
 * The texts are plain; the page escapes them where it writes them.
 */

/** One host: its name, the text to copy, and an install link when the host has one. */
export interface HostConnection {
  /** A stable id for the page's elements: `claude-code`, `vscode`, `cursor`, `claude-desktop`, `url`. */
  readonly id: string;
  readonly host: string;
  /** Where the text goes. */
  readonly where: string;
  readonly text: string;
  readonly link?: string;
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** The connections for the MCP endpoint at `url`, the server entry named `name`. */
export function hostConnections(url: string, name: string): HostConnection[] {
  const vscode = JSON.stringify({ name, type: 'http', url });
  const cursor = Buffer.from(JSON.stringify({ url }), 'utf8').toString('base64');
  return [
    { id: 'claude-code', host: 'Claude Code', where: 'in a terminal', text: `claude mcp add --transport http ${name} ${url}` },
    {
      id: 'vscode',
      host: 'VS Code',
      where: '.vscode/mcp.json',
      text: json({ servers: { [name]: { type: 'http', url } } }),
      link: `vscode:mcp/install?${encodeURIComponent(vscode)}`,
    },
    {
      id: 'cursor',
      host: 'Cursor',
      where: '.cursor/mcp.json',
      text: json({ mcpServers: { [name]: { url } } }),
      link: `cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(name)}&config=${encodeURIComponent(cursor)}`,
    },
    {
      id: 'claude-desktop',
      host: 'Claude Desktop',
      where: 'claude_desktop_config.json',
      text: json({ mcpServers: { [name]: { command: 'npx', args: ['-y', 'mcp-remote', url] } } }),
    },
    { id: 'url', host: 'Any other host', where: 'the Streamable HTTP endpoint', text: url },
  ];
}
