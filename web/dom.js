// Building the page without innerHTML: every text the server or a player sent is a text node.

/** An element: h("button", {class: "x", onclick: f, "aria-label": "Fold"}, "Fold", child, [more]). */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "value" || key === "checked" || key === "selected") el[key] = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** Replace what `el` holds. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

let ids = 0;
/** A fresh element id (for label/for and aria-describedby pairs). */
export function uid(prefix = "f") {
  ids += 1;
  return `${prefix}-${ids}`;
}

/** A labelled field: <label>text <input ...></label> plus an optional hint. */
export function field(label, input, hint) {
  const id = input.id || uid("in");
  input.id = id;
  let hintEl = null;
  if (hint) {
    hintEl = h("small", { class: "hint", id: `${id}-hint` }, hint);
    input.setAttribute("aria-describedby", hintEl.id);
  }
  return h("div", { class: "field" }, h("label", { for: id }, label), input, hintEl);
}
