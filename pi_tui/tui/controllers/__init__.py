"""The parts the interactive app is composed of, each given what it needs at construction.

- :mod:`.host`: ``AppHost``, the narrow view of ``PiApp`` the parts read and call (widgets, session, notices).
- :mod:`.quit`: ``QuitController`` (every way out: settle the session, release it, exit) and ``SignalHandlers``.
- :mod:`.submit`: ``SubmitController`` (pi's onSubmit: slash command, ``!cmd``, queue or prompt; the compaction
  queue) and :mod:`.user_bash`'s ``BashRunner`` (``!cmd`` with live output).
- :mod:`.key_actions`: ``KeyActions`` (what the editor's app keys do: Escape, Ctrl+C, toggles, model cycling).
- :mod:`.slash_commands`: ``SlashCommandHandlers`` (the built-in slash commands).

``PiApp`` keeps only the thin ``action_*`` methods and message handlers Textual looks up on the App, and they
delegate here. Nothing in this package is a mixin: a part reads another part only through what it was given.
"""
