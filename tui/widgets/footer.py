"""The keys of the screen at the bottom: Textual's Footer, rebuilt only when they change."""

from __future__ import annotations

from collections.abc import Hashable

from textual.widgets import Footer


class KeysFooter(Footer):
    """Textual's Footer rebuilds all its keys whenever the screen's bindings may have changed:
    after every focus change, although most leave the keys shown as they were (the bindings of an
    input or a table are not shown). Each rebuild removes and mounts a widget per key and restyles
    each twice, which was a tenth of the terminal app's CPU in the tests. This one rebuilds only
    when what it would show differs from what it shows.
    """

    _shown: Hashable = None

    def _keys(self) -> Hashable:
        """What ``compose`` shows: every shown binding with its state, and the palette's key."""
        if not self._bindings_ready:
            return None
        active = self.screen.active_bindings
        bindings = tuple(
            (binding, enabled, tooltip) for (_, binding, enabled, tooltip) in active.values() if binding.show
        )
        palette = None
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            palette = active.get(self.app.COMMAND_PALETTE_BINDING, (None,))[1:]
        return (bindings, palette, self.compact, self.combine_groups)

    async def recompose(self) -> None:
        if not self.is_attached or self._pruning:
            return
        keys = self._keys()
        if keys is not None and keys == self._shown:
            return
        self._shown = keys
        await super().recompose()
