"""An axe audit of a page in Chromium: contrast and accessible names, as WCAG AA asks of them.

axe-core (the copy inside the axe-playwright-python package, so nothing is fetched) runs in the
page. Its colour-contrast rule leaves a text it cannot place on one background as "incomplete"
(text above another element, as the header's title is); those are measured here the same way, in
the colours Chromium computed: the text's colour and opacity over the first opaque background
beneath it, the translucent layers between them blended in.
"""

from __future__ import annotations

import json
from typing import Any

from axe_playwright_python.base import AXE_SCRIPT

RULES = [
    "color-contrast",
    # every control has a name
    "button-name",
    "input-button-name",
    "label",
    "select-name",
    "link-name",
    "aria-command-name",
    "aria-input-field-name",
    "aria-toggle-field-name",
    "aria-progressbar-name",
    "aria-tooltip-name",
    "aria-dialog-name",
    "frame-title",
    "image-alt",
    "svg-img-alt",
    "role-img-alt",
]

UNDECIDED_CONTRAST = """targets => targets.map(selector => {
  const element = document.querySelector(selector);
  if (!element) return null;
  // any CSS colour (Tailwind's are oklab) in sRGB, as Chromium paints it: through a canvas
  const canvas = document.createElement('canvas').getContext('2d', {willReadFrequently: true});
  const rgba = text => {
    canvas.clearRect(0, 0, 1, 1);
    canvas.fillStyle = text;
    canvas.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = canvas.getImageData(0, 0, 1, 1).data;
    return [r, g, b, a / 255];
  };
  const over = (top, bottom) => {
    const a = top[3] + bottom[3] * (1 - top[3]);
    return [0, 1, 2].map(i => (top[i] * top[3] + bottom[i] * bottom[3] * (1 - top[3])) / (a || 1)).concat([a]);
  };
  const style = getComputedStyle(element);
  let opacity = 1, layers = [];
  for (let node = element; node; node = node.parentElement) {
    const own = getComputedStyle(node);
    opacity *= Number(own.opacity);
    const background = rgba(own.backgroundColor);
    if (node !== element || background[3] > 0) layers.push(background);
    if (background[3] >= 1) break;
  }
  const page = document.body.classList.contains('body--dark') ? [18, 18, 18, 1] : [255, 255, 255, 1];
  let background = page;
  for (const layer of layers.reverse()) background = over(layer, background);
  const color = rgba(style.color);
  const text = over([color[0], color[1], color[2], color[3] * opacity], background);
  const luminance = c => {
    const [r, g, b] = c.slice(0, 3).map(v => v / 255).map(v => v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [luminance(text), luminance(background)].sort((x, y) => y - x);
  const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
  const large = size >= 24 || (bold && size >= 18.66);
  return {selector, text: element.innerText.slice(0, 60), ratio: (hi + 0.05) / (lo + 0.05), needed: large ? 3 : 4.5};
})"""


def audit(page: Any, where: str) -> list[str]:
    """What the page breaks of RULES, one line each (``where`` names the page and its state)."""
    page.mouse.move(0, 0)  # no tooltip left fading in or out where the last click was
    page.wait_for_timeout(400)
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_SCRIPT)
    options = {"runOnly": {"type": "rule", "values": RULES}, "resultTypes": ["violations", "incomplete"]}
    results = page.evaluate(f"axe.run(document, {json.dumps(options)})")
    found = []
    for violation in results["violations"]:
        for node in violation["nodes"]:
            found.append(f"{where}: {violation['id']}: {node['html'][:160]} ({node['failureSummary'][:200]})")
    undecided = [
        node["target"][0]
        for result in results["incomplete"]
        if result["id"] == "color-contrast"
        for node in result["nodes"]
        if isinstance(node["target"][0], str)
    ]
    for measured in page.evaluate(UNDECIDED_CONTRAST, undecided):
        if measured and measured["ratio"] < measured["needed"]:
            found.append(f"{where}: color-contrast {measured['ratio']:.2f}:1 of {measured['text']!r}")
    return found + unnamed_controls(page, where)


CONTROLS = {
    "button",
    "textbox",
    "searchbox",
    "combobox",
    "checkbox",
    "radio",
    "switch",
    "slider",
    "spinbutton",
    "tab",
    "link",
    "menuitem",
    "listbox",
}


def unnamed_controls(page: Any, where: str) -> list[str]:
    """Controls without a name of their own, by Chromium's accessibility tree: none at all, or one
    that is only the placeholder or the value shown (a select named "All types" says what it
    holds, not what it is)."""
    session = page.context.new_cdp_session(page)
    try:
        nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        session.detach()
    found = []
    for node in nodes:
        role = node.get("role", {}).get("value")
        if node.get("ignored") or role not in CONTROLS:
            continue
        name = node.get("name", {})
        text = str(name.get("value", "")).strip()
        used = next((s for s in name.get("sources", []) if "value" in s and not s.get("superseded")), {})
        value = str(node.get("value", {}).get("value", "")).strip()
        if (
            not text
            or used.get("type") == "placeholder"
            or (role in ("textbox", "combobox") and text == value)
        ):
            found.append(f"{where}: a {role} named only {text!r} (by {used.get('type', 'nothing')})")
    return found


FOCUS_RING = """() => {
  const element = document.activeElement;
  const style = getComputedStyle(element);
  return {tag: element.tagName, text: (element.getAttribute('aria-label') || element.textContent || '').trim().slice(0, 40),
          style: style.outlineStyle, width: parseFloat(style.outlineWidth), color: style.outlineColor,
          shadow: style.boxShadow};
}"""


def focus_ring(page: Any) -> dict[str, Any]:
    """The outline of the focused element, as Chromium computed it."""
    return dict(page.evaluate(FOCUS_RING))
