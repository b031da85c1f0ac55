// A reader for the strict YAML subset of conformance/*.yaml (no YAML dependency):
//   key: scalar                    top-level scalars
//   key:                           a top-level list of flat maps
//     - key: scalar                  (first field of an item)
//       key: scalar                  (further fields)
// Scalars are plain (no leading quote, no ": " or " #") or single-quoted ('' is a quote).
// Blank lines and full-line comments are skipped. Anything else throws with the line number.

export type FlatMap = Record<string, string>;
export type FlatDoc = Record<string, string | FlatMap[]>;

function scalar(raw: string, line: number): string {
  const v = raw.trim();
  if (v.startsWith("'")) {
    if (!v.endsWith("'") || v.length < 2) throw new Error(`line ${line}: unterminated single-quoted scalar`);
    const body = v.slice(1, -1);
    if (/(^|[^'])'([^']|$)/.test(body.replace(/''/g, ""))) throw new Error(`line ${line}: a quote inside a single-quoted scalar must be doubled`);
    return body.replace(/''/g, "'");
  }
  if (v === "" || v.startsWith('"') || v.includes(": ") || v.includes(" #") || /^[[{&*!|>%@`]/.test(v)) {
    throw new Error(`line ${line}: unsupported scalar ${JSON.stringify(v)} (use a plain or single-quoted scalar)`);
  }
  return v;
}

const KEY = /^([A-Za-z_][A-Za-z0-9_]*):(?: (.*))?$/;

export function parseFlatYaml(text: string): FlatDoc {
  const doc: FlatDoc = {};
  let list: FlatMap[] | undefined;
  let item: FlatMap | undefined;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    const line = lines[i];
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    if (/\t/.test(line)) throw new Error(`line ${n}: tabs are not allowed`);
    const indent = line.length - line.trimStart().length;
    const body = line.trimStart();
    if (indent === 0) {
      const m = KEY.exec(body);
      if (!m) throw new Error(`line ${n}: expected "key: value" or "key:"`);
      if (m[1] in doc) throw new Error(`line ${n}: duplicate key ${m[1]}`);
      if (m[2] === undefined || m[2].trim() === "") {
        list = [];
        doc[m[1]] = list;
      } else {
        doc[m[1]] = scalar(m[2], n);
        list = undefined;
      }
      item = undefined;
      continue;
    }
    if (!list) throw new Error(`line ${n}: indented line outside a list`);
    let field = body;
    if (indent === 2 && body.startsWith("- ")) {
      item = {};
      list.push(item);
      field = body.slice(2);
    } else if (indent !== 4 || !item) {
      throw new Error(`line ${n}: expected "  - key: value" or a field indented by 4`);
    }
    const m = KEY.exec(field);
    if (!m || m[2] === undefined) throw new Error(`line ${n}: expected "key: value"`);
    if (m[1] in item!) throw new Error(`line ${n}: duplicate field ${m[1]}`);
    item![m[1]] = scalar(m[2], n);
  }
  return doc;
}
