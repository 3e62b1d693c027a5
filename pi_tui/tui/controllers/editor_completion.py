"""``EditorCompletion``: the editor's completion list as pi's editor drives it (pi-tui ``Editor`` autocomplete,
0.73.1; what is offered and inserted is ``pi_tui.coding.autocomplete``).

Opening: typing (a character, Backspace, Delete) in a context opens or updates the list: ``/name`` on the first
line (commands), ``/name <arg>`` (that command's argument completions), an ``@`` token (the project's files,
from ``pi_tui.coding.file_index``, listed in a worker the first time and again when older than
``INDEX_MAX_AGE`` s; queries run off the event loop, 20 ms after the last key, as pi's debounce; MCP resources
of connected servers after them, and only them for ``@server:``, ``pi_tui.coding.mcp.resources``). Any other
change of the text (a paste, history, a completion inserted, Ctrl+C) closes it, as does leaving the context.

Keys while open (the editor's own keys, so a remapped key moves the list too): Up/Down (the history keys) move
the highlight, wrapping; Tab inserts the item; Enter (the submit key) inserts it too, and for a command also
submits (pi: ``/mo`` Enter runs ``/model``), and an argument or file typed in full (``/theme nord``) is sent at
once (pi would wait for a second Enter); Tab or Enter on a folder inserts it and lists its files (pi closes the
list; new-user run #30); Escape (the interrupt key) closes the list without aborting. With
the list closed every key does what it did before, except Tab in an ``@`` token or after ``/name `` (it asks for
the completions there, as pi's Tab). A command whose completions raise is reported once
(``report``) and offers none.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import threading
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from textual import events

from pi_tui.coding.autocomplete import (
    CompletionItem,
    Suggestions,
    apply_completion,
    argument_context,
    argument_suggestions,
    best_match_index,
    build_completion_value,
    command_prefix,
    command_suggestions,
    extract_at_prefix,
    has_open_quote,
    parse_path_prefix,
)
from pi_tui.tui.widgets.completion_list import MAX_VISIBLE, CompletionList

if TYPE_CHECKING:
    from pi_tui.coding.file_index import FileIndex, FileMatch
    from pi_tui.tui.widgets.prompt_input import PromptInput


def _file_index(root: str) -> FileIndex:
    from pi_tui.coding.file_index import FileIndex  # with the first @ (not before the first paint, issue 15)

    return FileIndex(root)

FILE_DEBOUNCE_S = 0.02  # pi's ATTACHMENT_AUTOCOMPLETE_DEBOUNCE_MS
INDEX_MAX_AGE = 30.0  # seconds; an older listing is rebuilt (in a worker) when the list opens for a file
EDIT_KEYS = frozenset({"backspace", "delete"})


def file_items(matches: Sequence[FileMatch], quoted: bool) -> list[CompletionItem]:
    """List items for file matches: inserted as ``@path`` (``@"path"`` with spaces), shown by name, the path
    beside it (pi's ``getFuzzyFileSuggestions``)."""
    items = []
    for match in matches:
        path = match.path + ("/" if match.is_dir else "")
        items.append(CompletionItem(build_completion_value(path, quoted), match.name + ("/" if match.is_dir else ""),
                                    match.path))
    return items


class EditorCompletion:
    """Drives ``view`` for ``editor`` (module docstring). ``commands()``: the app's command list (the one
    registry); ``cwd()``: the project root for files; ``report(where, exc)``: the app's failure reporter;
    ``index_factory(root)``: the file index to use (``FileIndex``; tests pass a Python-walk one)."""

    def __init__(self, editor: PromptInput, view: CompletionList, commands: Callable[[], Sequence[Any]],
                 cwd: Callable[[], str], report: Callable[[str, BaseException], None],
                 index_factory: Callable[[str], FileIndex] = _file_index,
                 resources: Callable[[], Mapping[str, Sequence[Any]]] | None = None) -> None:
        self.editor = editor
        self._resources = resources  # MCP server -> its listed resources (@server:uri items)
        self.view = view
        self._commands = commands
        self._cwd = cwd
        self._report = report
        self._index_factory = index_factory
        self.index: FileIndex | None = None
        self._indexing = False
        self._armed = False  # the next text change comes from typing
        self.suggestions: Suggestions | None = None
        self._request = 0
        self.providers: Any = None
        """Extension autocomplete providers (``tui/extension_completion.ProviderStack``): asked instead of the
        rules below while any is registered (they delegate to them)."""
        self._closing_quote: tuple[int, str] | None = None  # (row, text from it on): a quote we inserted

    # ------------------------------------------------------------------ state
    @property
    def is_open(self) -> bool:
        """True while the list is shown."""
        return self.view.is_open

    def close(self) -> None:
        """Close the list and drop any request still running."""
        self._request += 1
        self.suggestions = None
        if self.view.is_open:
            self.view.close()

    def _before_cursor(self) -> tuple[str, int, int]:
        row, col = self.editor.cursor_location
        return self.editor.document[row][:col], row, col

    # ------------------------------------------------------------------ hooks called by the editor
    def handle_key(self, key: str, event: events.Key) -> bool:
        """A key reached the editor; True when the list took it (module docstring)."""
        self._armed = key in EDIT_KEYS or (event.is_printable and event.character is not None
                                           and self.editor.keymap.action_for(key) is None)
        action = self.editor.keymap.action_for(key)
        if not self.is_open:
            if key == "tab" and action is None and self._tab_context():
                self.request()  # pi's Tab: ask for completions where they exist (an @ token, an argument)
                return True
            return False
        if action == "app.history.prev" or action == "app.history.next":
            self.view.move(-1 if action == "app.history.prev" else 1)
            return True
        if action == "app.interrupt":
            self.close()
            return True
        if key == "tab" or action == "tui.input.submit":
            if self._stale():  # keys of the same burst changed the text after the list was computed
                if not self._refresh_now():
                    if key == "tab" and action != "tui.input.submit":
                        self._armed = True  # the burst's own edit, reported after this key, asks again (not closes)
                        self.request()  # the list follows the text once its completions arrive
                        return True
                    self.close()
                    return False  # Enter sends what the editor shows
            kind = self.suggestions.kind if self.suggestions is not None else None
            item = self.view.selected_item
            if (action == "tui.input.submit" and kind != "command" and item is not None and self.suggestions
                    is not None and item.value == self.suggestions.prefix):
                self.close()  # already typed in full: nothing to insert, Enter sends
                return False
            is_folder = kind == "file" and item is not None and item.shown.endswith("/")
            if not self._insert_selected():
                self.close()
                return False
            if is_folder:
                self._armed = True  # the insertion's change asks again: the folder's files are listed
            return not (action == "tui.input.submit" and kind == "command")  # a command is also submitted
        return False

    def _stale(self) -> bool:
        """The shown suggestions are for other text than what is before the cursor now (tester2 #2: the editor's
        text-changed message is handled after the keys queued behind it, so a burst of keys and Enter found the
        list still computed for an earlier prefix, and its item replaced the wrong characters)."""
        suggestions = self.suggestions
        if suggestions is None:
            return False
        before, row, _ = self._before_cursor()
        if getattr(suggestions, "from_provider", False):  # an extension's (tui/extension_completion.py)
            return not before.endswith(suggestions.prefix)
        if suggestions.kind == "command":
            return command_prefix(before, row) is None or before != suggestions.prefix
        if suggestions.kind == "argument":
            context = argument_context(before, row)
            return context is None or context[1] != suggestions.prefix
        return extract_at_prefix(before) != suggestions.prefix

    def _refresh_now(self) -> bool:
        """Recompute the suggestions for the text before the cursor when that can be done at once (commands);
        True when the list is now current and has items."""
        if self.providers is not None and self.providers.active:
            return False  # extension providers answer asynchronously (``request``)
        before, row, _ = self._before_cursor()
        prefix = command_prefix(before, row)
        if prefix is None:
            return False
        self._request += 1
        self._show_commands(prefix)
        return self.suggestions is not None and self.view.selected_item is not None

    def _tab_context(self) -> bool:
        before, row, _ = self._before_cursor()
        return extract_at_prefix(before) is not None or argument_context(before, row) is not None

    def text_changed(self) -> None:
        """The editor's text changed: typing opens/updates the list, anything else closes it."""
        armed, self._armed = self._armed, False
        if self._drop_orphan_quote():
            return  # that deletion is a change of its own: it closes the list
        if not armed:
            self.close()
            return
        self.request()

    def cursor_moved(self) -> None:
        """The cursor moved: the list closes when the cursor is no longer in a context it completes (an edit
        within one updates it through :meth:`text_changed`)."""
        if not self.is_open:
            return
        if self.providers is not None and self.providers.active:
            self.request()  # the providers decide whether the new place completes
            return
        before, row, _ = self._before_cursor()
        if (command_prefix(before, row) is None and extract_at_prefix(before) is None
                and argument_context(before, row) is None):
            self.close()

    def _drop_orphan_quote(self) -> bool:
        """Delete the closing ``"`` a quoted folder completion put after the cursor once the quotation it
        closed is gone (Ctrl+U, Backspace over ``@"``), so later typing and completions do not land before a
        stray quote (new-user run #30). It is remembered only while the text from it on is unchanged."""
        if self._closing_quote is None:
            return False
        before, row, col = self._before_cursor()
        quote_row, rest = self._closing_quote
        if row != quote_row or self.editor.document[row][col:] != rest:
            self._closing_quote = None
            return False
        if has_open_quote(before):
            return False
        self._closing_quote = None
        self.editor.replace("", (row, col), (row, col + 1))
        self.editor.move_cursor((row, col))
        return True

    # ------------------------------------------------------------------ suggestions
    def request(self) -> None:
        """Compute the suggestions for the cursor's context and show them (or close the list)."""
        before, row, _ = self._before_cursor()
        self._request += 1
        token = self._request
        if self.providers is not None and self.providers.active:
            # a partial, not a coroutine: a request replaced before it starts is never created (no warning)
            self.view.run_worker(functools.partial(self.providers.request, self, token),
                                 group="editor-completion", exclusive=True)
            return
        prefix = command_prefix(before, row)
        if prefix is not None:
            self._show_commands(prefix)
            return
        # partials, not coroutines: a request replaced before its worker starts creates none (no "never awaited")
        at_prefix = extract_at_prefix(before)
        if at_prefix is not None:
            self._run(functools.partial(self._files, token, at_prefix))
            return
        context = argument_context(before, row)
        if context is not None:
            self._run(functools.partial(self._arguments, token, *context))
            return
        self.close()

    def _run(self, work: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run one completion request as the view's exclusive worker (a newer request cancels it)."""
        self.view.run_worker(work, group="editor-completion", exclusive=True)  # type: ignore[arg-type]

    def _show_commands(self, prefix: str) -> None:
        """Show the slash commands matching ``prefix`` (computed at once: no worker)."""
        self._show(command_suggestions(prefix, self._commands()))

    def _current(self, token: int) -> bool:
        return token == self._request

    def _show(self, suggestions: Suggestions | None) -> None:
        if suggestions is None:
            self.close()
            return
        self.suggestions = suggestions
        self.view.show_items(suggestions.items, best_match_index(suggestions.items, suggestions.prefix),
                             commands=suggestions.kind == "command")

    async def _arguments(self, token: int, name: str, argument: str) -> None:
        try:
            suggestions = await argument_suggestions(name, argument, self._commands())
        except Exception as exc:  # an extension's completions never break the editor
            self._report(f"argument completions of /{name}", exc)
            suggestions = None
        if self._current(token):
            self._show(suggestions)

    def _resource_items(self, query: str) -> tuple[list[CompletionItem], bool]:
        """``(items, only)``: MCP resources for the ``@`` query (``coding.mcp.resources``); ``only`` when the
        query names a server (``@server:…``), so files are not listed."""
        if self._resources is None:
            return [], False
        try:
            listed = self._resources()
            from pi_tui.coding.mcp.resources import resource_completions

            items = resource_completions(listed, query)
        except Exception as exc:  # completion never breaks the editor
            self._report("MCP resource completion", exc)
            return [], False
        server, sep, _ = query.partition(":")
        return items, bool(sep) and server in listed

    async def _files(self, token: int, at_prefix: str) -> None:
        await asyncio.sleep(FILE_DEBOUNCE_S)
        if not self._current(token):
            return
        resource_items, only_resources = self._resource_items(parse_path_prefix(at_prefix)[0])
        if only_resources:
            self._show(Suggestions(resource_items, at_prefix, "file") if resource_items else None)
            return
        index = self._file_index()
        if not index.ready:
            self.suggestions = None
            self.view.show_message("Indexing files…")
            return  # the build's end asks again
        query, quoted = parse_path_prefix(at_prefix)
        try:
            matches = await asyncio.to_thread(index.query, query)
        except Exception as exc:
            self._report("file completion", exc)
            matches = []
        if self._current(token):
            items = file_items(matches, quoted) + resource_items
            self._show(Suggestions(items, at_prefix, "file") if items else None)

    def _file_index(self) -> FileIndex:
        """The index of the current cwd, (re)built in a worker when missing or older than ``INDEX_MAX_AGE``."""
        root = os.path.abspath(self._cwd())
        if self.index is None or self.index.root != root:
            self.index = self._index_factory(root)
        age = self.index.age()
        if not self._indexing and (age is None or age > INDEX_MAX_AGE):
            self._indexing = True
            self.view.run_worker(self._build(self.index), group="file-index")
        return self.index

    async def _build(self, index: FileIndex) -> None:
        try:
            await _in_daemon_thread(index.build)
        except Exception as exc:
            self._report("file index", exc)
        finally:
            self._indexing = False
        before, _, _ = self._before_cursor()
        if self.view.is_open and self.suggestions is None and extract_at_prefix(before) is not None:
            self.request()  # the list was waiting for the index

    # ------------------------------------------------------------------ inserting
    def _insert_selected(self) -> bool:
        """Insert the highlighted item (pi's ``applyCompletion``) and close the list; False when there is none."""
        item, suggestions = self.view.selected_item, self.suggestions
        if item is None or suggestions is None:
            return False
        editor = self.editor
        row, col = editor.cursor_location
        lines = [editor.document[i] for i in range(editor.document.line_count)]
        if self.providers is not None and self.providers.active:
            new_lines, new_row, new_col = self.providers.apply(lines, row, col, item, suggestions)
        else:
            new_lines, new_row, new_col = apply_completion(lines, row, col, item, suggestions)
        self.close()
        if len(new_lines) == len(lines) and all(a == b for i, (a, b) in enumerate(zip(new_lines, lines, strict=True)) if i != row):
            editor.replace(new_lines[row], (row, 0), (row, len(lines[row])))
        else:  # a provider changed other lines too
            editor.replace("\n".join(new_lines), (0, 0), editor.document.end)
        editor.move_cursor((new_row, new_col))
        rest = new_lines[new_row][new_col:]
        self._closing_quote = (new_row, rest) if rest.startswith('"') and item.value.endswith('"') else None
        return True


async def _in_daemon_thread(work: Callable[[], None]) -> None:
    """Run ``work`` in a daemon thread and wait for it: quitting never waits for a long listing (a home
    directory), as it would for ``asyncio.to_thread``'s executor threads."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()

    def settle(error: BaseException | None) -> None:
        if not done.done():
            done.set_exception(error) if error is not None else done.set_result(None)

    def run() -> None:
        error: BaseException | None = None
        try:
            work()
        except BaseException as exc:  # handed to the waiting coroutine
            error = exc
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile (the app quit)
            loop.call_soon_threadsafe(settle, error)

    threading.Thread(target=run, name="file-index", daemon=True).start()
    await done


def attach_completion(editor: PromptInput, theme: Callable[[], Any], commands: Callable[[], Sequence[Any]],
                      cwd: Callable[[], str], report: Callable[[str, BaseException], None],
                      resources: Callable[[], Mapping[str, Sequence[Any]]] | None = None,
                      max_visible: Callable[[], int] | int = MAX_VISIBLE) -> CompletionList:
    """The completion list for ``editor`` (placed by the app under it), with its driver set as
    ``editor.completion``; ``resources()``: the MCP resources ``@server:uri`` completes from; ``max_visible()``:
    its rows (``autocompleteMaxVisible``)."""
    view = CompletionList(theme, max_visible, id="completion")
    editor.completion = EditorCompletion(editor, view, commands, cwd, report, resources=resources)
    return view
