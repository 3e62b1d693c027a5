"""Custom compaction: replace the model-written summary with a structured one built locally (no
model call, so it is instant, free and works offline): what the user asked, the files read and
changed, the commands run and where the last reply left off. It summarises everything before the
kept recent turns, and carries the previous summary forward. ``pi-tui -e examples/extensions/custom_compaction.py``
"""


def text_of(message):
    content = getattr(message, "content", "")
    if isinstance(content, str):
        return content
    return "".join(getattr(block, "text", "") for block in content)


def summarise(preparation):
    """A markdown summary of ``preparation.messages_to_summarize`` plus the split turn's prefix."""
    messages = [*preparation.messages_to_summarize, *preparation.turn_prefix_messages]
    asks = [text_of(m).strip().splitlines()[0][:200] for m in messages
            if getattr(m, "role", None) == "user" and text_of(m).strip()]
    commands = [str(block.arguments.get("command", ""))[:200]
                for m in messages if getattr(m, "role", None) == "assistant"
                for block in m.content if getattr(block, "type", None) == "toolCall" and block.name == "bash"]
    replies = [text_of(m).strip() for m in messages if getattr(m, "role", None) == "assistant" and text_of(m).strip()]
    parts = []
    if preparation.previous_summary:
        parts.append("## Earlier\n" + preparation.previous_summary.strip())
    parts.append("## The user asked\n" + ("\n".join(f"- {a}" for a in asks) or "- (nothing)"))
    if preparation.read_files or preparation.modified_files:
        parts.append("## Files\n" + "\n".join(
            [f"- changed {p}" for p in sorted(preparation.modified_files)]
            + [f"- read {p}" for p in sorted(preparation.read_files - preparation.modified_files)]))
    if commands:
        parts.append("## Commands run\n" + "\n".join(f"- `{c}`" for c in commands))
    if replies:
        parts.append("## Last reply\n" + replies[-1][:1000])
    return "\n\n".join(parts)


def activate(pi):
    def compact(event, ctx):
        preparation = event.preparation
        summary = summarise(preparation)
        ctx.ui.notify(f"Custom compaction: {len(preparation.messages_to_summarize)} messages summarised locally")
        return {"compaction": {"summary": summary, "first_kept_entry_id": preparation.first_kept_entry_id,
                               "tokens_before": preparation.tokens_before, "details": {"by": "custom_compaction"}}}

    pi.on("session_before_compact", compact)
