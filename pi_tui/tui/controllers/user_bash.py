"""``BashRunner``: a user ``!cmd`` (``!!cmd`` keeps it out of the model's context) with live output in the
transcript (pi-reference §3.14 submit flow)."""

from __future__ import annotations

from pi_tui.tui.controllers.host import AppHost
from pi_tui.tui.log_setup import log
from pi_tui.tui.widgets.transcript_items import BashItem


class BashRunner:
    """Runs user bash through ``host.session.execute_bash`` and shows it as a ``BashItem``."""

    def __init__(self, host: AppHost) -> None:
        self.host = host

    async def run(self, command: str, exclude: bool) -> None:
        """Run ``command``; ``exclude`` leaves it out of the context. Failures are shown in the item."""
        host = self.host
        session = host.session
        if session is None:
            return
        item = BashItem(command, exclude)
        host.transcript.add(item)

        def on_chunk(chunk: str) -> None:
            item.output += chunk
            item.changed()
            host.transcript.item_changed(item)

        host.bash_running = True
        host.update_prompt_mode()  # the editor title says Escape cancels it
        try:
            result = await session.execute_bash(command, on_chunk=on_chunk, exclude_from_context=exclude)
        except Exception as exc:
            log.warning("user bash failed", exc_info=exc)
            item.running = False
            item.output += f"\n{exc}" if item.output else str(exc)
            item.exit_code = 1
        else:
            item.running = False
            item.output = result.output
            item.exit_code = result.exit_code
            item.cancelled = result.cancelled
            item.truncated_path = result.full_output_path
        finally:
            host.bash_running = session.is_bash_running
            host.update_prompt_mode()
        item.changed()
        host.transcript.item_changed(item, immediate=True)
