"""What a learner types survives a lost connection, even one the page does not come back from.

Within ``webui.main.RECONNECT_SECONDS`` a page that lost its connection reconnects to the same
page on the server, its fields as they were. Past them (a phone asleep for a minute), NiceGUI
reloads the page, which the server builds anew with empty fields. So the page keeps each text
field's value in the tab's own sessionStorage (twice a second; nothing goes to the server) and,
when it is built again, puts back what a field held into the field if it is still empty, as
typing would: the answer and the question to the tutor are there again, and the server has them.

A field is known by its name (aria-label, label or placeholder) and its place among fields of
that name, so a field that appears later (the rating's remark after the feedback) moves no other.
"""

from __future__ import annotations

from nicegui import ui

DRAFTS_SCRIPT = """(() => {
  if (window.fsDrafts) return;
  window.fsDrafts = true;
  const named = field => field.getAttribute('aria-label')
    || field.closest('.q-field')?.querySelector('.q-field__label')?.textContent
    || field.placeholder || '';
  const keyed = () => {
    const seen = {};
    return [...document.querySelectorAll('.nicegui-content input:not([type]), .nicegui-content input[type=text], .nicegui-content textarea')]
      .map(field => {
        const name = named(field);
        seen[name] = (seen[name] || 0) + 1;
        return [`fs-draft ${location.pathname} ${name} ${seen[name]}`, field];
      });
  };
  for (const [key, field] of keyed()) {
    const draft = sessionStorage.getItem(key);
    if (draft && !field.value) {
      field.value = draft;
      field.dispatchEvent(new Event('input', {bubbles: true}));
    }
  }
  setInterval(() => { for (const [key, field] of keyed()) sessionStorage.setItem(key, field.value); }, 500);
})()"""


def keep_drafts() -> None:
    """Keep the text fields of this page across reloads of its tab (see the module doc)."""
    client = ui.context.client
    client.on_connect(lambda: client.run_javascript(DRAFTS_SCRIPT))  # again on a reconnect: it runs once
