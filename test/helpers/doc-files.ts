// The code blocks of a guide that carry a file name (```ts file=NAME): the files a test compiles.
export function docFiles(markdown: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const m of markdown.matchAll(/^```ts file=(\S+)\n([\s\S]*?)^```$/gm)) {
    if (files.has(m[1])) throw new Error(`${m[1]} appears twice`);
    files.set(m[1], m[2]);
  }
  return files;
}
