// A template the server renders with its parts marked (scoring.templatetags.sheet_row_parts:
// the sheet's row) filled in from a view, as logic-less templates are: a part `\x1d#name\x1d…
// \x1d/name\x1d` is kept when the view's `name` is true, repeated for each item when it is a
// list (each item a view of its own, read before the view around it), dropped otherwise; a
// part `\x1d^name\x1d…\x1d/name\x1d` is kept when `name` is false or an empty list; a value
// `\x1ename\x1e` is the view's `name` (HTML already), "" if it has none. Pure: text in, text out.

// biome-ignore lint/suspicious/noControlCharactersInRegex: the separators mark parts and values
const MARKS = /\x1d([#^/])([a-z_0-9]+)\x1d|\x1e([a-z_0-9]+)\x1e/g;

// The parts of each template met, parsed once (a page hands one or two).
const parsed = new Map();

// The template as a tree: text, values ({ value }) and parts ({ part, inverted, children }).
export function parseTemplate(template) {
  const root = { children: [] };
  const open = [root];
  let at = 0;
  for (const found of template.matchAll(MARKS)) {
    const current = open[open.length - 1];
    if (found.index > at) current.children.push(template.slice(at, found.index));
    at = found.index + found[0].length;
    const [, kind, part, value] = found;
    if (value !== undefined) {
      current.children.push({ value });
    } else if (kind === "/") {
      if (current.part !== part) throw new Error(`the template closes "${part}" unopened`);
      open.pop();
    } else {
      const child = { part, inverted: kind === "^", children: [] };
      current.children.push(child);
      open.push(child);
    }
  }
  if (open.length > 1) throw new Error(`the template leaves "${open[open.length - 1].part}" open`);
  if (at < template.length) root.children.push(template.slice(at));
  return root.children;
}

function lookup(views, name) {
  for (const view of views) {
    if (view && name in view) return view[name];
  }
  return undefined;
}

function render(nodes, views) {
  let html = "";
  for (const node of nodes) {
    if (typeof node === "string") {
      html += node;
    } else if (node.value !== undefined) {
      const value = lookup(views, node.value);
      html += value === undefined || value === null ? "" : String(value);
    } else {
      const value = lookup(views, node.part);
      const items = Array.isArray(value) ? value : null;
      const present = items ? items.length > 0 : Boolean(value);
      if (node.inverted) {
        if (!present) html += render(node.children, views);
      } else if (items) {
        for (const item of items) html += render(node.children, [item, ...views]);
      } else if (present) {
        html += render(node.children, views);
      }
    }
  }
  return html;
}

// `template` filled in from `view`.
export function fillTemplate(template, view) {
  let nodes = parsed.get(template);
  if (!nodes) {
    nodes = parseTemplate(template);
    parsed.set(template, nodes);
  }
  return render(nodes, [view]);
}
