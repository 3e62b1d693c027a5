"""The extension system (issue 11): registries shared by built-ins and extensions, the loader, the ``pi``
API object and the event runner. No Textual here: each front end implements :class:`ExtensionUI`."""

from pi_tui.coding.extensions.registries import COMMAND_SOURCES, CommandHandler, CommandRegistry, CommandSpec

__all__ = ["COMMAND_SOURCES", "CommandHandler", "CommandRegistry", "CommandSpec"]
