import { cpSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, matchesGlob } from 'node:path';

// What `docker build` would do with this repository, read without Docker: the Dockerfile's stages and
// the build context `.dockerignore` lets through. Only what our Dockerfile uses is understood (global
// ARGs with defaults, one-line instructions or `\` continuations, exec-form CMD and HEALTHCHECK); anything
// else fails loudly rather than being half read.

export interface Instruction {
  readonly keyword: string;
  readonly args: string;
}

export interface Stage {
  readonly image: string;
  readonly name: string | undefined;
  readonly instructions: readonly Instruction[];
}

const instructionsOf = (text: string): Instruction[] =>
  text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword!.toUpperCase(), args: rest.join(' ') };
    });

export const readDockerfile = (path: string): Stage[] => {
  const globalArgs = new Map<string, string>();
  const stages: { image: string; name: string | undefined; instructions: Instruction[] }[] = [];
  for (const instruction of instructionsOf(readFileSync(path, 'utf8'))) {
    if (instruction.keyword === 'FROM') {
      const [image, as, name] = instruction.args.split(' ');
      stages.push({
        image: image!.replace(/\$\{(\w+)\}/g, (_, arg: string) => globalArgs.get(arg) ?? ''),
        name: as?.toUpperCase() === 'AS' ? name : undefined,
        instructions: [],
      });
    } else if (stages.length === 0) {
      if (instruction.keyword !== 'ARG') throw new Error(`before FROM, only ARG is understood: ${instruction.keyword}`);
      const [name, value] = instruction.args.split('=');
      globalArgs.set(name!, value ?? '');
    } else stages.at(-1)!.instructions.push(instruction);
  }
  return stages;
};

/** `ENV A=1 B=2` lines of a stage, in order. */
export const envOf = (stage: Stage): Record<string, string> =>
  Object.fromEntries(
    stage.instructions
      .filter(({ keyword }) => keyword === 'ENV')
      .flatMap(({ args }) =>
        args.split(/\s+/).map((pair) => {
          if (!/^\w+=[^"'\s]*$/.test(pair)) throw new Error(`ENV is understood only as NAME=value: ${pair}`);
          return pair.split('=') as [string, string];
        }),
      ),
  );

/** The exec form (`["node", "x.mjs"]`) after `prefix` in the stage's `keyword` instruction. */
export const execFormOf = (stage: Stage, keyword: string, prefix = ''): string[] => {
  const instruction = stage.instructions.find((candidate) => candidate.keyword === keyword);
  if (!instruction) throw new Error(`no ${keyword} in the stage`);
  const form = instruction.args.slice(instruction.args.indexOf('[', instruction.args.indexOf(prefix)));
  return JSON.parse(form);
};

/** Copies the build context: every file under `root` that `.dockerignore` does not leave out. Patterns
 *  match paths from the context root as Docker's do (`**` any depth; the last matching pattern wins, `!`
 *  lets a path back in); a directory left out is not entered. */
export const copyBuildContext = (root: string, target: string): void => {
  const patterns = readFileSync(join(root, '.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const included = line.startsWith('!');
      return {
        included,
        glob: line
          .replace(/^!/, '')
          .replace(/^\.?\//, '')
          .replace(/\/$/, ''),
      };
    });
  const leftOut = (path: string): boolean =>
    patterns.reduce((out, { included, glob }) => (matchesGlob(path, glob) ? !included : out), false);
  const walk = (relativeDir: string): void => {
    for (const entry of readdirSync(join(root, relativeDir), { withFileTypes: true })) {
      const path = relativeDir ? `${relativeDir}/${entry.name}` : entry.name;
      if (leftOut(path)) continue;
      if (entry.isDirectory()) {
        mkdirSync(join(target, path), { recursive: true });
        walk(path);
      } else cpSync(join(root, path), join(target, path), { verbatimSymlinks: true });
    }
  };
  mkdirSync(target, { recursive: true });
  walk('');
};
