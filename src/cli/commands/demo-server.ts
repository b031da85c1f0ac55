// Placeholder until the demo server lands (issue 2).
export async function run(_argv: string[]): Promise<number> {
  process.stderr.write("mcp-prism demo-server: not implemented yet\n");
  return 2;
}
