/**
 * Pins the names each published entry exports, so a change to the public API
 * is a deliberate edit of this list.
 */
import { describe, expect, it } from 'vitest';

describe('public API', () => {
  it('exports these runtime names from skillport', async () => {
    const entry = await import('../../src/index.js');
    expect(Object.keys(entry).sort()).toEqual([
      'DEFAULT_LIMITS',
      'ErrorCode',
      'InputPendingError',
      'InputUnavailableError',
      'InvalidParamsError',
      'LEGACY_VERSIONS',
      'MAX_COMPLETION_VALUES',
      'MODERN_VERSIONS',
      'MethodNotFoundError',
      'MissingClientCapabilityError',
      'OutputLimitError',
      'ProtocolError',
      'ResourceNotFoundError',
      'SUPPORTED_VERSIONS',
      'ToolArgumentsError',
      'combinePrompts',
      'combineTools',
      'createCompletionIndex',
      'createServer',
      'definePrompt',
      'defineResource',
      'defineResourceTemplate',
      'defineTool',
      'escapeControls',
      'escapeJsonControls',
      'isInputPendingError',
      'isInputUnavailableError',
      'isMissingClientCapabilityError',
      'isProtocolError',
      'isResourceNotFoundError',
      'isToolArgumentsError',
      'livePrompts',
      'liveResources',
      'liveTools',
      'memoryTaskStore',
      'parseUriTemplate',
      'rankCompletions',
      'requestContext',
      'silentLogger',
      'staticPrompts',
      'staticResources',
      'staticTools',
      'toBase64',
    ]);
  });

  it('exports the Streamable HTTP transport from skillport/http', async () => {
    const entry = await import('../../src/http.js');
    expect(Object.keys(entry).sort()).toEqual([
      'GIT_HOOK_PATH',
      'connectRedis',
      'createChangeBus',
      'createGitHook',
      'createHttpHandler',
      'serveHttp',
      'sharedTaskStore',
      'toNodeHandler',
      'verifyGitHook',
    ]);
  });

  it('exports serveStdio from skillport/stdio', async () => {
    const entry = await import('../../src/stdio.js');
    expect(Object.keys(entry).sort()).toEqual(['serveStdio']);
  });

  it('exports the skills folder, git and index sources, install, the discovery index and the catalogue page from skillport/skills', async () => {
    const entry = await import('../../src/skills.js');
    expect(Object.keys(entry).sort()).toEqual([
      'DISCOVERY_PREFIX',
      'SKILL_FILE_TEMPLATE',
      'buildCatalogue',
      'cataloguePage',
      'chooseByName',
      'chooseSkills',
      'discoveryRoutes',
      'formatIssue',
      'installSkills',
      'isGitSource',
      'isIndexSource',
      'loadGitSkills',
      'loadIndexSkills',
      'loadSkillsFolder',
      'redactCredentials',
      'redactSource',
      'usageNames',
    ]);
  });

  it('exports metrics and traces from skillport/telemetry', async () => {
    const entry = await import('../../src/telemetry.js');
    expect(Object.keys(entry).sort()).toEqual([
      'DURATION_BUCKETS',
      'METRICS_PATH',
      'MetricsRegistry',
      'errorTypeOf',
      'operationMetrics',
      'serveMetrics',
      'startTracing',
      'targetOf',
    ]);
  });
});
