// Test-only module hooks (module.register): `fs/promises` imported from inside the `skills`
// package resolves to _skills-cli-fs-promises.mjs; every other import resolves as usual.
const SHIM = new URL('./_skills-cli-fs-promises.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  const fromSkills = context.parentURL?.includes('/node_modules/skills/') === true;
  if (fromSkills && (specifier === 'fs/promises' || specifier === 'node:fs/promises')) return { url: SHIM, shortCircuit: true };
  return next(specifier, context);
}
