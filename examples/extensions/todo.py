"""A ``todo`` tool the model keeps its task list with; the list is shown as an artifact after each
change, counted in the footer, and rebuilt from the session when it is resumed or forked (the tool's
results carry the list in ``details``). ``/todos`` shows it again. ``pi-tui -e examples/extensions/todo.py``
"""

from typing import Literal

from pydantic import BaseModel


class TodoParams(BaseModel):
    action: Literal["list", "add", "done", "remove", "clear"]
    text: str | None = None
    id: int | None = None


def render(todos):
    """The list as a markdown checklist."""
    return "\n".join(f"- [{'x' if t['done'] else ' '}] {t['id']}. {t['text']}" for t in todos) or "_(empty)_"


def activate(pi):
    todos = []

    def show(ctx):
        pi.post_artifact("Todos", render(todos), "markdown")
        done = sum(t["done"] for t in todos)
        ctx.ui.set_status("todo", f"☑ {done}/{len(todos)}" if todos else None)

    def execute(call_id, params, signal, on_update, ctx):
        if params.action == "add":
            if not params.text:
                raise ValueError("add needs text")
            todos.append({"id": max((t["id"] for t in todos), default=0) + 1, "text": params.text, "done": False})
        elif params.action in ("done", "remove"):
            item = next((t for t in todos if t["id"] == params.id), None)
            if item is None:
                raise ValueError(f"no todo #{params.id}")
            if params.action == "done":
                item["done"] = True
            else:
                todos.remove(item)
        elif params.action == "clear":
            todos.clear()
        show(ctx)
        return {"content": render(todos), "details": {"todos": [dict(t) for t in todos]}}

    def rebuild(event, ctx):
        todos.clear()
        for entry in ctx.session_manager.get_branch():
            message = getattr(entry, "message", None)
            if getattr(message, "role", None) == "toolResult" and message.tool_name == "todo" and message.details:
                todos[:] = [dict(t) for t in message.details.get("todos", [])]
        ctx.ui.set_status("todo", f"☑ {sum(t['done'] for t in todos)}/{len(todos)}" if todos else None)

    pi.register_tool("todo", "Keep a todo list: action list|add (text)|done (id)|remove (id)|clear",
                     TodoParams, execute, prompt_snippet="Track multi-step work as a todo list",
                     prompt_guidelines=["Use todo to plan work of three steps or more and mark each step done."])
    pi.register_command("todos", lambda args, ctx: show(ctx), "Show the todo list")
    pi.on("session_start", rebuild)
