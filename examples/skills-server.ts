import { combinePrompts, createServer, definePrompt, staticPrompts } from 'skillport';
import { loadSkillsFolder } from 'skillport/skills';
import { serveStdio } from 'skillport/stdio';

// A skills folder served next to prompts written in code, reloaded when its files change.
const folder = await loadSkillsFolder(['./skills'], { watch: true });
const extra = staticPrompts([definePrompt({ name: 'standup', description: 'Write a stand-up update.', output: 'Summarise what I did yesterday.' })]);

const server = createServer({
  name: 'team-prompts',
  version: '1.0.0',
  instructions: folder.instructions, // tells a model how to load a skill
  prompts: combinePrompts(folder.prompts, extra),
  resources: folder.resources,
  skills: folder.skills,
  ...(folder.tools && { tools: folder.tools }), // load_skill and read_skill_file, unless { tools: false }
});
await serveStdio(server).done;
folder.close();
