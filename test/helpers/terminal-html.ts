// A tmux screen (capture-pane -e: text with SGR colour escapes) as HTML, so a browser can draw the
// terminal beside a View for a screenshot (the README's picture). Only SGR is kept; the text is escaped.
const BASE = ["#1e1e1e", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5"];
const BRIGHT = ["#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff"];

function color256(n: number): string {
  if (n < 8) return BASE[n];
  if (n < 16) return BRIGHT[n - 8];
  if (n < 232) {
    const v = [0, 95, 135, 175, 215, 255];
    const i = n - 16;
    return `rgb(${v[Math.floor(i / 36)]},${v[Math.floor(i / 6) % 6]},${v[i % 6]})`;
  }
  const g = 8 + (n - 232) * 10;
  return `rgb(${g},${g},${g})`;
}

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function terminalHtml(screen: string): string {
  let style: Record<string, string> = {};
  let out = "";
  // eslint-disable-next-line no-control-regex
  for (const part of screen.split(/(\x1b\[[0-9;]*m)/)) {
    // eslint-disable-next-line no-control-regex
    const m = /^\x1b\[([0-9;]*)m$/.exec(part);
    if (!m) {
      const css = Object.entries(style)
        .map(([k, v]) => `${k}:${v}`)
        .join(";");
      out += css ? `<span style="${css}">${escape(part)}</span>` : escape(part);
      continue;
    }
    const codes = (m[1] || "0").split(";").map(Number);
    for (let i = 0; i < codes.length; i++) {
      const c = codes[i];
      if (c === 0) style = {};
      else if (c === 1) style["font-weight"] = "bold";
      else if (c === 2) style.opacity = "0.6";
      else if (c === 3) style["font-style"] = "italic";
      else if (c === 4) style["text-decoration"] = "underline";
      else if (c === 7) style.filter = "invert(1)";
      else if (c === 22) delete style["font-weight"], delete style.opacity;
      else if (c === 39) delete style.color;
      else if (c === 49) delete style.background;
      else if (c >= 30 && c <= 37) style.color = BASE[c - 30];
      else if (c >= 90 && c <= 97) style.color = BRIGHT[c - 90];
      else if (c >= 40 && c <= 47) style.background = BASE[c - 40];
      else if (c >= 100 && c <= 107) style.background = BRIGHT[c - 100];
      else if ((c === 38 || c === 48) && codes[i + 1] === 5) {
        style[c === 38 ? "color" : "background"] = color256(codes[i + 2] ?? 0);
        i += 2;
      } else if ((c === 38 || c === 48) && codes[i + 1] === 2) {
        style[c === 38 ? "color" : "background"] =
          `rgb(${codes[i + 2] ?? 0},${codes[i + 3] ?? 0},${codes[i + 4] ?? 0})`;
        i += 4;
      }
    }
  }
  return out;
}

/** A page with the terminal on the left and a screenshot (PNG) on the right. */
export function besideHtml(screen: string, png: Buffer, caption: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>
body{margin:0;background:#f4f4f4;font:13px system-ui,sans-serif;display:flex;gap:16px;padding:16px;align-items:flex-start}
.term{background:#1e1e1e;color:#e5e5e5;border-radius:8px;padding:10px 12px;box-shadow:0 2px 8px #0004}
.term pre{margin:0;font:12px/1.25 "DejaVu Sans Mono",monospace;white-space:pre}
.view{background:#fff;border-radius:8px;box-shadow:0 2px 8px #0004;overflow:hidden}
.view img{display:block}.cap{color:#555;margin:0 0 6px}
</style></head><body><div><p class="cap">terminal: mcp-prism --mode app</p><div class="term"><pre>${terminalHtml(screen)}</pre></div></div>
<div><p class="cap">${escape(caption)}</p><div class="view"><img src="data:image/png;base64,${png.toString("base64")}"></div></div></body></html>`;
}
