"""A user message with attachments in the transcript: the user's own words on ``userMessageBg`` with one line
per attached file below them, and a ``/skill:name`` invocation as pi 0.73 draws it (new-user runs #3, #13).

The message itself (what the model gets and the session keeps) is unchanged; ``coding.user_blocks`` splits
it for showing. Collapsed, a file is ``[file] big.txt · 600 lines (click or Ctrl+O to expand)`` and a skill
pi's ``[skill] name (Ctrl+O to expand)`` on ``customMessageBg`` above the message (pi's
``SkillInvocationMessageComponent``); a click on the item or Ctrl+O (``ctx.expand_tools``, pi's
``toolOutputExpanded``) shows the files' contents and the skill's text.
"""

from __future__ import annotations

import os

from rich.console import RenderableType
from rich.padding import Padding
from rich.text import Text
from textual.strip import Strip

from pi_tui.coding.tools.truncate import count_lines
from pi_tui.coding.user_blocks import FileBlock, SkillBlock, UserBlocks, split_user_text
from pi_tui.tui.widgets.message_render import RenderContext, group
from pi_tui.tui.widgets.transcript_items import UserItem


def user_text_item(text: str) -> UserItem:
    """The item for a user message's ``text``: a plain ``UserItem``, or a ``UserMessageItem`` when the text
    carries file or skill blocks."""
    blocks = split_user_text(text)
    if not blocks.files and blocks.skill is None:
        return UserItem(text)
    return UserMessageItem(blocks)


def file_summary(block: FileBlock) -> str:
    """``big.txt · 600 lines`` (``· 1 line``, ``· empty``), or the name and an image reference's notes."""
    name = os.path.basename(block.path) or block.path
    if block.content is None:
        return f"{name} · {block.note}" if block.note else name
    lines = count_lines(block.content)
    return f"{name} · " + ("empty" if not block.content.strip() else f"{lines} line{'s' if lines != 1 else ''}")


class UserMessageItem(UserItem):
    """The user's words with their attachments (module docstring)."""

    def __init__(self, blocks: UserBlocks) -> None:
        super().__init__(blocks.text)
        self.files: list[FileBlock] = list(blocks.files)
        self.skill: SkillBlock | None = blocks.skill

    @property  # type: ignore[override]
    def clickable(self) -> bool:  # type: ignore[override]
        """A click shows or hides the attachments (and a long text)."""
        return bool(self.files or self.skill is not None) or self.long

    def toggle(self) -> bool:
        self.expanded = not self.expanded
        self.changed()
        return True

    def plain_text(self) -> str:
        names = [f"[file] {file_summary(f)}" for f in self.files]
        skill = [f"[skill] {self.skill.name}"] if self.skill is not None else []
        return "\n".join([*skill, self.text, *names])

    def _open(self, ctx: RenderContext) -> bool:
        return self.expanded or ctx.expand_tools

    def build(self, ctx: RenderContext, width: int) -> list[Strip]:
        out: list[Strip] = []
        if self.skill is not None:
            out += self._skill_strips(ctx, self.skill, width)
        if self.text.strip():
            bubble = super().build(ctx, width)
            out += bubble[:-1] if self.files else bubble  # the files follow inside the bubble, then its padding
        if self.files:
            t = ctx.theme
            top = 0 if self.text.strip() else 1
            parts = [self._file_part(ctx, f) for f in self.files]
            bg = t.bg("userMessageBg") + t.fg("userMessageText")
            out += ctx.to_strips(Padding(group(*parts), (top, 1, 1, 1), style=bg, expand=True), width)
        return out

    def _file_part(self, ctx: RenderContext, block: FileBlock) -> RenderableType:
        t = ctx.theme
        head = Text.assemble(("[file] ", t.fg("customMessageLabel", bold=True)), (file_summary(block), t.fg("muted")))
        if not self._open(ctx):
            if block.content is not None and block.content.strip():
                head.append(f" (click or {ctx.expand_key} to expand)", style=t.fg("dim"))
            return head
        if block.content is None or not block.content.strip():
            return head
        head.append(f"  {block.path}", style=t.fg("dim"))
        return group(head, Text(block.content.rstrip("\n"), style=t.fg("toolOutput")))

    def _skill_strips(self, ctx: RenderContext, skill: SkillBlock, width: int) -> list[Strip]:
        t = ctx.theme
        label = ("[skill]", t.fg("customMessageLabel", bold=True))
        body: RenderableType
        if self._open(ctx):
            body = group(Text(*label), ctx.markdown(f"**{skill.name}**\n\n{skill.content}", t.fg("customMessageText")))
        else:
            body = Text.assemble(label, " ", (skill.name, t.fg("customMessageText")),
                                 (f" ({ctx.expand_key} to expand)", t.fg("dim")))
        strips = ctx.to_strips(Padding(body, (1, 1), style=t.bg("customMessageBg"), expand=True), width)
        return strips
