/**
 * A strict XML well-formedness check for the report's SVG and HTML output: one root element,
 * every tag closed in nesting order, attributes quoted and unique, `&` only in a known or numeric
 * entity, no `<` in text or attribute values. Throws naming the offset; returns the elements.
 */
export interface XmlElement {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  text: string;
}

const ENTITY = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/;

function checkText(s: string, at: number): void {
  if (ENTITY.test(s)) throw new Error(`bare & at ${at}: ${s.slice(0, 60)}`);
}

export function parseXml(input: string): XmlElement {
  let src = input;
  let base = 0;
  const doctype = /^<!DOCTYPE html>\s*/.exec(src);
  if (doctype) {
    base = doctype[0].length;
    src = src.slice(base);
  }
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let i = 0;
  while (i < src.length) {
    const lt = src.indexOf('<', i);
    const text = lt < 0 ? src.slice(i) : src.slice(i, lt);
    checkText(text, base + i);
    if (stack.length) stack[stack.length - 1]!.text += text;
    else if (text.trim()) throw new Error(`text outside the root at ${base + i}`);
    if (lt < 0) break;
    if (src.startsWith('<!--', lt)) {
      const end = src.indexOf('-->', lt);
      if (end < 0) throw new Error(`unclosed comment at ${base + lt}`);
      i = end + 3;
      continue;
    }
    const gt = src.indexOf('>', lt);
    if (gt < 0) throw new Error(`unclosed tag at ${base + lt}`);
    const tag = src.slice(lt + 1, gt);
    i = gt + 1;
    const close = /^\/([A-Za-z][\w:-]*)\s*$/.exec(tag);
    if (close) {
      const open = stack.pop();
      if (open?.name !== close[1]) {
        throw new Error(`</${close[1]}> closes <${open?.name ?? 'nothing'}> at ${base + lt}`);
      }
      continue;
    }
    const m = /^([A-Za-z][\w:-]*)((?:\s+[A-Za-z_:][\w:.-]*="[^"<]*")*)\s*(\/?)$/.exec(tag);
    if (!m) throw new Error(`malformed tag <${tag.slice(0, 60)}> at ${base + lt}`);
    const attrs: Record<string, string> = {};
    for (const a of m[2]!.matchAll(/([A-Za-z_:][\w:.-]*)="([^"]*)"/g)) {
      if (a[1]! in attrs) throw new Error(`duplicate attribute ${a[1]} at ${base + lt}`);
      checkText(a[2]!, base + lt);
      attrs[a[1]!] = a[2]!;
    }
    const el: XmlElement = { name: m[1]!, attrs, children: [], text: '' };
    if (stack.length) stack[stack.length - 1]!.children.push(el);
    else if (root) throw new Error(`second root <${el.name}> at ${base + lt}`);
    else root = el;
    if (!m[3]) stack.push(el);
  }
  if (stack.length) throw new Error(`unclosed <${stack[stack.length - 1]!.name}>`);
  if (!root) throw new Error('no root element');
  return root;
}

/** Every element of the tree (depth first), optionally only those named `name`. */
export function elements(root: XmlElement, name?: string): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (e: XmlElement): void => {
    if (!name || e.name === name) out.push(e);
    e.children.forEach(walk);
  };
  walk(root);
  return out;
}

/** Elements named `name` with `class` equal to `cls`. */
export const byClass = (root: XmlElement, name: string, cls: string): XmlElement[] =>
  elements(root, name).filter((e) => e.attrs.class === cls);
