// A deliberately small highlighter for fenced code: comments, strings, numbers and keywords, one
// line at a time (so a streamed block can be drawn line by line). One regex pass per line: linear.
// A string or comment that spans lines is not followed; that costs a colour, never a character.

export type CodeKind = "keyword" | "string" | "comment" | "number";
export interface CodePiece {
  text: string;
  kind?: CodeKind;
}

const KEYWORDS = new Set(
  (
    "abstract and as async await break case catch class const continue def default del do elif else enum export extends " +
    "false fi final finally fn for from func function go if impl implements import in interface is lambda let loop match mod " +
    "module mut new nil none not null or package pass private protected pub public raise return self static struct super " +
    "switch then this throw true try type typeof undefined use var void where while with yield True False None " +
    "select insert update delete create table into values join on group by order limit echo local export"
  ).split(" "),
);

/** Languages whose comments start with `#` (else `//` and `--` for SQL-like ones). */
const HASH_COMMENTS = new Set([
  "py",
  "python",
  "sh",
  "bash",
  "zsh",
  "shell",
  "console",
  "yaml",
  "yml",
  "toml",
  "rb",
  "ruby",
  "r",
  "perl",
  "pl",
  "dockerfile",
  "make",
  "makefile",
  "ini",
  "conf",
]);
const DASH_COMMENTS = new Set(["sql", "lua", "haskell", "hs"]);
const PLAIN = new Set(["", "text", "txt", "plain", "plaintext", "md", "markdown", "output", "log"]);

const patterns = new Map<string, RegExp>();
function patternFor(lang: string): RegExp {
  let re = patterns.get(lang);
  if (!re) {
    const comment = HASH_COMMENTS.has(lang)
      ? "#.*"
      : DASH_COMMENTS.has(lang)
        ? "--.*"
        : "\\/\\/.*|\\/\\*.*?(?:\\*\\/|$)";
    // Strings are bounded by their quote or the line's end; a backslash escapes one character.
    re = new RegExp(
      `(${comment})|("(?:[^"\\\\]|\\\\.)*"?|'(?:[^'\\\\]|\\\\.)*'?|\`(?:[^\`\\\\]|\\\\.)*\`?)|(\\b\\d[\\d_]*(?:\\.\\d+)?(?:[eE][+-]?\\d+)?\\b)|([A-Za-z_$][\\w$]*)`,
      "g",
    );
    patterns.set(lang, re);
  }
  return re;
}

/** One line of code in pieces; the language (a fence's info word) picks the comment syntax. */
export function highlightLine(line: string, lang: string): CodePiece[] {
  const l = lang.toLowerCase();
  if (PLAIN.has(l) || line.length === 0) return [{ text: line }];
  const re = patternFor(l);
  re.lastIndex = 0;
  const out: CodePiece[] = [];
  let at = 0;
  const push = (text: string, kind?: CodeKind) => {
    if (!text) return;
    const prev = out[out.length - 1];
    if (prev && prev.kind === kind) prev.text += text;
    else out.push(kind ? { text, kind } : { text });
  };
  for (let m = re.exec(line); m; m = re.exec(line)) {
    push(line.slice(at, m.index));
    if (m[1] !== undefined) push(m[1], "comment");
    else if (m[2] !== undefined) push(m[2], "string");
    else if (m[3] !== undefined) push(m[3], "number");
    else push(m[4], KEYWORDS.has(m[4]) ? "keyword" : undefined);
    at = m.index + m[0].length;
    if (m[0].length === 0) re.lastIndex++;
  }
  push(line.slice(at));
  return out;
}
