// Writing a file the user asked for (/save, /save-output): whole or not at all (a temp file in the
// same folder, renamed over the target once completely written, so a full disk leaves the old
// file as it was), with mode 0600 like the session transcript, since it holds the conversation.
// A target that is not a regular file (a FIFO, /dev/stdout) is written in place.
import { promises as fs } from "node:fs"; // fs.promises loads on first use, not with the app
import { basename, dirname, join } from "node:path";

export async function writePrivateFile(path: string, data: string | Buffer): Promise<void> {
  const target = await fs.realpath(path).catch(() => path); // through a symlink to its file
  const st = await fs.stat(target).catch(() => undefined);
  if (st && !st.isFile()) return fs.writeFile(target, data);
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now()}.tmp`);
  try {
    await fs.writeFile(tmp, data, { mode: 0o600, flag: "wx" });
    await fs.rename(tmp, target);
  } catch (e) {
    await fs.rm(tmp, { force: true }).catch(() => {});
    throw e;
  }
}
