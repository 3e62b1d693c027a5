"""Git checkpoints: before the first edit of each turn, a stash-like snapshot of the working tree
(tracked and untracked files, ignored ones excepted; your branch, index and stashes are not touched).
``/checkpoints`` lists them, ``/rollback [n]`` puts the files back as they were at checkpoint ``n``
(default: the latest), removing files created since. Outside a git repository it does nothing.
``pi-tui -e examples/extensions/git_checkpoint.py``
"""

import os
import tempfile
import time

EDIT_TOOLS = ("write", "edit", "bash")


def activate(pi):
    checkpoints = []  # [{"commit", "tree", "turn", "time"}], oldest first
    state = {"turn": 0, "taken": False}

    async def git(*args, index=None):
        env = {"GIT_INDEX_FILE": index} if index else None
        result = await pi.exec("git", list(args), env=env)
        if result.code != 0:
            raise RuntimeError(f"git {args[0]}: {result.stderr.strip() or result.code}")
        return result.stdout.strip()

    async def snapshot_tree(index):
        """The tree of the working tree as it is now, written through a scratch index."""
        head = (await pi.exec("git", ["rev-parse", "--verify", "-q", "HEAD"])).stdout.strip()
        if head:
            await git("read-tree", head, index=index)
        await git("add", "-A", "--", ":/", index=index)
        return await git("write-tree", index=index), head

    async def checkpoint():
        with tempfile.TemporaryDirectory() as scratch:
            tree, head = await snapshot_tree(os.path.join(scratch, "index"))
        parents = ["-p", head] if head else []
        commit = await git("commit-tree", tree, *parents, "-m", f"pi-tui checkpoint (turn {state['turn']})")
        await git("update-ref", f"refs/pi-tui/checkpoints/{len(checkpoints) + 1}", commit)
        checkpoints.append({"commit": commit, "tree": tree, "turn": state["turn"], "time": time.strftime("%H:%M:%S")})
        pi.append_entry("git-checkpoint", checkpoints[-1])

    async def before_edit(event, ctx):
        if event.tool_name not in EDIT_TOOLS or state["taken"]:
            return None
        state["taken"] = True
        inside = await pi.exec("git", ["rev-parse", "--is-inside-work-tree"])
        if inside.stdout.strip() == "true":
            await checkpoint()
        return None

    def turn_start(event):
        state["turn"] += 1
        state["taken"] = False

    def listing(args, ctx):
        lines = [f"{i}. turn {c['turn']} at {c['time']}  {c['commit'][:10]}" for i, c in enumerate(checkpoints, 1)]
        pi.post_artifact("Checkpoints", "\n".join(lines) or "No checkpoints yet", "text")

    async def rollback(args, ctx):
        if not checkpoints:
            ctx.ui.notify("No checkpoint to roll back to", "warning")
            return
        n = int(args) if args.strip().isdigit() else len(checkpoints)
        if not 1 <= n <= len(checkpoints):
            ctx.ui.notify(f"No checkpoint {n} (1-{len(checkpoints)})", "warning")
            return
        target = checkpoints[n - 1]
        if not await ctx.ui.confirm(f"Roll the files back to checkpoint {n}?", "Changes made since are lost."):
            return
        with tempfile.TemporaryDirectory() as scratch:
            index = os.path.join(scratch, "index")
            await snapshot_tree(index)  # the scratch index knows today's files, so new ones get removed
            await git("read-tree", "-u", "--reset", target["tree"], index=index)
        del checkpoints[n:]
        ctx.ui.notify(f"Rolled back to checkpoint {n} (turn {target['turn']})")

    def restore(event, ctx):
        checkpoints[:] = [e.data for e in ctx.session_manager.get_branch()
                          if getattr(e, "custom_type", None) == "git-checkpoint" and isinstance(e.data, dict)]

    pi.on("turn_start", turn_start)
    pi.on("tool_call", before_edit)
    pi.on("session_start", restore)
    pi.register_command("checkpoints", listing, "List git checkpoints of this session")
    pi.register_command("rollback", rollback, "Restore the files of a git checkpoint: /rollback [n]")
