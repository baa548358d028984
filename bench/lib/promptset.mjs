// The prompt set every contender serves, as plain data. Each server file maps
// it onto its framework's API, so the wire content is the same everywhere:
//   - three small prompts with arguments (greet, review, summarize)
//   - static_4k and static_4k_get: no arguments, the same ~4 KB static body
//   - lookup: one argument completing over 100,000 generated values
//   - gen_0000..gen_0999: 1,000 generated prompts for listing
// Deterministic (seeded PRNG), so every process builds identical values.

export const SERVER_INFO = { name: 'bench', version: '1.0.0' };

function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 100,000 distinct lowercase values, 6-12 letters, uniformly spread over two-letter prefixes. */
export function completionValues(count = 100_000) {
  const rand = prng(42);
  const seen = new Set();
  const out = [];
  while (out.length < count) {
    const length = 6 + Math.floor(rand() * 7);
    let word = '';
    for (let i = 0; i < length; i++) word += String.fromCharCode(97 + Math.floor(rand() * 26));
    if (!seen.has(word)) {
      seen.add(word);
      out.push(word);
    }
  }
  return out;
}

/** Two-letter prefixes the completion workload rotates through. */
export const PREFIXES = ['ab', 'co', 'de', 'ma', 'pr', 'st', 'tr', 'xe'];

/** The ~4 KB static body. */
export const STATIC_4K = (() => {
  const line = 'Static prompt body used to measure the cost of a larger response without argument substitution. ';
  let text = '# Static 4 KB prompt\n\n';
  while (text.length < 4096 - line.length) text += line;
  return text;
})();

export const SMALL_PROMPTS = [
  {
    name: 'greet',
    description: 'Greets someone by name.',
    arguments: [
      { name: 'name', description: 'Who to greet', required: true },
      { name: 'tone', description: 'warm or formal', required: false },
    ],
    render: (a) => `Say hello to ${a.name} in a ${a.tone ?? 'neutral'} tone.`,
  },
  {
    name: 'review',
    description: 'Reviews code in a language.',
    arguments: [
      { name: 'language', description: 'Programming language', required: true },
      { name: 'focus', description: 'What to focus on', required: false },
    ],
    render: (a) => `Review this ${a.language} code, focusing on ${a.focus ?? 'correctness'}.`,
  },
  {
    name: 'summarize',
    description: 'Summarizes a text.',
    arguments: [{ name: 'text', description: 'Text to summarize', required: true }],
    render: (a) => `Summarize the following text in three sentences:\n\n${a.text}`,
  },
];

export const GENERATED_COUNT = 1000;
export function generatedPrompts(count = GENERATED_COUNT) {
  return Array.from({ length: count }, (_, i) => {
    const name = `gen_${String(i).padStart(4, '0')}`;
    return {
      name,
      description: `Generated prompt number ${i} for the listing benchmark.`,
      arguments: [{ name: 'input', description: 'Optional input', required: false }],
      render: (a) => `Generated prompt ${i} with input ${a.input ?? '(none)'}.`,
    };
  });
}

/**
 * The standard prompts in listing order. `fixed: true` marks a body that is
 * the same for every request, which skillport declares with `output`; every
 * other prompt is declared with `get`, the way docs/library.md writes prompts. The
 * 4 KB body is served twice, once each way, as two prompts.
 */
export function standardPrompts() {
  return [
    ...SMALL_PROMPTS,
    { name: 'static_4k', description: 'A static ~4 KB body.', arguments: [], fixed: true, render: () => STATIC_4K },
    { name: 'static_4k_get', description: 'The same ~4 KB body, from a function.', arguments: [], render: () => STATIC_4K },
    {
      name: 'lookup',
      description: 'Looks up a key; the key completes over 100,000 values.',
      arguments: [{ name: 'key', description: 'A key', required: true, completes: true }],
      render: (a) => `Look up ${a.key}.`,
    },
    ...generatedPrompts(),
  ];
}
export const STANDARD_COUNT = SMALL_PROMPTS.length + 3 + GENERATED_COUNT;

/** The standard set: its prompts and the 100,000 completion values. */
export function standardSet() {
  return { values: completionValues(), prompts: standardPrompts() };
}

/** Prefix completion as a peer's user code would write it (the SDKs have no index). */
export function naiveComplete(values, prefix) {
  const matches = values.filter((v) => v.startsWith(prefix));
  return { values: matches.slice(0, 100), total: matches.length, hasMore: matches.length > 100 };
}

/** Cold-start prompt set: N skill-like prompts with a ~1 KB body each (same text as the generated SKILL.md files). */
export function skillLike(count) {
  return Array.from({ length: count }, (_, i) => {
    const name = skillName(i);
    return { name, description: skillDescription(i), arguments: [], render: () => skillBody(i) };
  });
}
export const skillName = (i) => `skill-${String(i).padStart(5, '0')}`;
export const skillDescription = (i) => `Skill number ${i} does one small thing well when asked about topic ${i % 97}.`;
export function skillBody(i) {
  const para = `When the user asks about topic ${i % 97}, follow these steps carefully and cite the relevant files. `;
  let text = `# Skill ${i}\n\n`;
  while (text.length < 900) text += para;
  return `${text}\n`;
}
export function skillFile(i) {
  return `---\nname: ${skillName(i)}\ndescription: ${skillDescription(i)}\n---\n\n${skillBody(i)}`;
}
