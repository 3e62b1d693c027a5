"""Where a linked git worktree sits relative to its main checkout (for context-file discovery).

A linked worktree (``git worktree add``) has a ``.git`` *file* (``gitdir: <main>/.git/worktrees/<name>``) whose
git dir holds ``commondir`` (the main repository's git dir). When the worktree lives inside the main checkout
(``repo/.worktrees/feat``), the directories walked up from it pass through the main checkout, whose
``AGENTS.md`` is the other checkout's copy of the worktree's own: pi 0.83.0 (#7221) loaded both, and pi 1.2.0
(#10681) loaded none when the worktree's copy was a symlink. :func:`main_checkout_above` finds that case.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class NestedWorktree:
    """``root``: the linked worktree's top directory; ``main_root``: its main checkout's, an ancestor of it."""

    root: Path
    main_root: Path

    def in_main_checkout(self, directory: Path) -> bool:
        """True for the main checkout's directories above the worktree (``main_root`` .. the worktree's parent)."""
        return directory != self.root and self.root.is_relative_to(directory) and directory.is_relative_to(
            self.main_root
        )


def _git_file_dir(git_file: Path) -> Path | None:
    try:
        text = git_file.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return None
    if not text.startswith("gitdir:"):
        return None
    target = Path(text[len("gitdir:"):].strip())
    return target if target.is_absolute() else (git_file.parent / target)


def main_checkout_above(start: str | os.PathLike[str]) -> NestedWorktree | None:
    """The :class:`NestedWorktree` ``start`` is in, when it is a linked worktree inside its main checkout; else
    None (a plain checkout, a worktree elsewhere, no git, anything unreadable). Paths are absolute, not
    resolved (the context-file walk uses the same form)."""
    current = Path(os.path.abspath(start))
    while True:
        marker = current / ".git"
        if marker.is_dir():
            return None  # the main checkout itself (or a plain repository)
        if marker.is_file():
            git_dir = _git_file_dir(marker)
            if git_dir is None:
                return None
            try:
                common = (git_dir / (git_dir / "commondir").read_text(encoding="utf-8").strip()).resolve()
            except OSError:
                return None
            if common.name != ".git":
                return None  # a bare main repository: no main checkout
            main_root = Path(os.path.abspath(common.parent))
            resolved_root = current.resolve()
            if resolved_root == main_root.resolve() or not resolved_root.is_relative_to(main_root.resolve()):
                return None
            # the main root in the walk's (unresolved) form: the ancestor of ``current`` that resolves to it
            for ancestor in current.parents:
                if ancestor.resolve() == main_root.resolve():
                    return NestedWorktree(root=current, main_root=ancestor)
            return None
        if current.parent == current:
            return None
        current = current.parent
