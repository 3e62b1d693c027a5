"""``AppHost``: what the app's parts (``pi_tui.tui.controllers``) may read and call on ``PiApp``.

The parts used to be mixins of ``PiApp`` reading each other's ``self`` attributes; each now gets the app as an
``AppHost`` at construction, so this protocol is the whole of what they share. ``PiApp`` satisfies it (mypy checks
it where the parts are built).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from pi_tui.tui.keymap import Keymap
    from pi_tui.tui.session_protocol import TuiSession
    from pi_tui.tui.theme_loader import PiTheme
    from pi_tui.tui.widgets.message_render import RenderContext
    from pi_tui.tui.widgets.prompt_input import PromptInput
    from pi_tui.tui.widgets.queue_view import QueueView
    from pi_tui.tui.widgets.tool_panel import ToolPanel
    from pi_tui.tui.widgets.transcript import Transcript


class AppHost(Protocol):
    """The app's state and widgets the parts use (attributes are read at call time: the session changes on
    ``/new``, ``/resume`` and start-up; the widgets exist once the app is composed)."""

    session: TuiSession | None
    session_error: str | None  # why there is no session (start-up failed), or None
    working: bool  # an agent run is under way
    compacting: bool  # between compaction_start and compaction_end
    bash_running: bool  # a user ``!cmd`` runs
    cwd: str
    keymap: Keymap
    ctx: RenderContext
    pi_theme: PiTheme
    local_models: list[Any]  # models found on localhost servers by the start-up probe
    transcript: Transcript
    tool_panel: ToolPanel
    queue_view: QueueView
    prompt_input: PromptInput

    def add_notice(self, level: str, text: str) -> Any:
        """A status/info/warning/error line in the transcript."""
        ...

    def refresh_footer(self) -> None: ...
    def show_status(self, text: str) -> None:
        """A transient status line above the editor (with the spinner)."""
        ...

    def clear_status(self) -> None: ...
    def update_offline_notice(self) -> None: ...
    def update_prompt_mode(self) -> None: ...
    def update_title(self) -> None: ...
    def rebuild_transcript(self) -> None: ...
    def refresh_key_hints(self) -> None: ...
    def check_ownership(self) -> None: ...
    def set_working(self, working: bool) -> None: ...
    def set_pi_theme(self, name: str, save: bool = True) -> None: ...
    def save_setting(self, setter: str, *args: Any) -> None: ...
    def now(self) -> float: ...
    def suspend(self) -> Any: ...
    def copy_to_clipboard(self, text: str) -> None: ...
    def run_worker(self, work: Any, name: str | None = "", group: str = "default") -> Any: ...
    def push_screen(self, screen: Any, callback: Any = None) -> Any: ...
    async def push_screen_wait(self, screen: Any) -> Any: ...


def session_working(host: AppHost, session: TuiSession) -> bool:
    """True while the agent streams or the session compacts (an automatic compaction mid-run included) or waits
    to retry: a switch of branch or session then must ask to stop it first (new-user run #28: a /tree jump
    during a mid-run compaction put the compaction on the new branch and continued the old turn there)."""
    return bool(host.working or host.compacting or session.is_streaming or session.is_compacting
                or getattr(session, "is_retrying", False))


def need_session(host: AppHost) -> TuiSession | None:
    """The session, or None after telling the user why there is none (still starting / failed)."""
    if host.session is None:
        host.add_notice("error", f"No session: {host.session_error}" if host.session_error
                        else "The session is still starting; try again in a moment.")
    return host.session
