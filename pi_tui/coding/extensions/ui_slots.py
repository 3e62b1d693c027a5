"""Custom UI that extensions put in place of the front end's own parts (pi 0.73 docs/extensions.md "Custom UI":
``ctx.ui.set_header``, ``set_footer``, ``set_working_message``, ``set_working_visible``,
``set_working_indicator``, ``set_tools_expanded``/``get_tools_expanded``, ``paste_to_editor``).

A header or footer is given as pi's *factory*: ``factory(tui, theme)`` (header) or ``factory(tui, theme,
footer_data)`` (footer) returns a *component*, an object with ``render(width) -> list[str]`` (lines; ANSI
colours allowed; a ``str`` is split at newlines) and optionally ``invalidate()`` and ``dispose()``; a plain
function ``render(width)`` is a component too. ``tui`` has ``request_render()``, ``width`` and ``height``;
``theme`` has ``fg(token, text)``, ``bg(token, text)``, ``bold(text)``, ``italic(text)`` (ANSI strings in the
current theme); ``footer_data`` has ``get_git_branch()``, ``get_extension_statuses()`` and
``on_branch_change(callback) -> unsubscribe``.

:class:`SlotSpec` is what the front end gets: the factory and :meth:`SlotSpec.fail`, which the front end calls
when the factory or a render raises. It reports one error naming the extension (found from the factory's
module) and the slot, and the front end puts its own part back: a broken extension never leaves the app
without a footer. Front ends without these parts (print, JSON, RPC, ACP) ignore them, as pi's RPC mode does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pi_tui.coding.extensions.runner import LoadedExtension

if TYPE_CHECKING:
    from pi_tui.coding.extensions.runtime import ExtensionRuntime

SLOTS = ("header", "footer")


def owner_of(runtime: ExtensionRuntime, fn: Any) -> LoadedExtension:
    """The loaded extension whose module defined ``fn`` (a function, class, bound method or instance);
    a stand-in named ``extension`` when none matches."""
    module = getattr(fn, "__module__", None) or getattr(type(fn), "__module__", None)
    for extension in runtime.extensions:
        if extension.module is not None and module and extension.module.__name__ == module:
            return extension
        if module and extension.module is not None and module.startswith(extension.module.__name__ + "."):
            return extension
    return LoadedExtension(name="extension", path="")


@dataclass
class SlotSpec:
    """A custom ``slot`` (``header`` or ``footer``) set by ``owner``: ``factory`` builds the component;
    ``on_fail(exc)`` reports a failure (see :meth:`fail`)."""

    slot: str
    factory: Callable[..., Any]
    owner: LoadedExtension
    on_fail: Callable[[SlotSpec, BaseException], None] = field(repr=False, default=lambda spec, exc: None)
    failed: bool = False

    def fail(self, exc: BaseException) -> None:
        """The factory or a render raised: reported once; the front end shows its own part again."""
        if self.failed:
            return
        self.failed = True
        self.on_fail(self, exc)


def render_lines(component: Any, width: int) -> list[str]:
    """The lines ``component`` renders at ``width`` (``render(width)`` or a callable); raises ``TypeError``
    for anything that is not a list of strings or a string, and whatever the component raises."""
    render = getattr(component, "render", None)
    if render is None and callable(component):
        render = component
    if render is None:
        raise TypeError(f"a component needs render(width); got {type(component).__name__}")
    value = render(width)
    if isinstance(value, str):
        return value.split("\n")
    if isinstance(value, list | tuple) and all(isinstance(line, str) for line in value):
        return [line for item in value for line in item.split("\n")]
    raise TypeError(f"render(width) must return a list of str, not {type(value).__name__}")


def dispose(component: Any) -> None:
    """Call the component's ``dispose()`` if it has one (errors ignored: it is going away)."""
    method = getattr(component, "dispose", None)
    if callable(method):
        try:
            method()
        except Exception:  # noqa: BLE001 - a component that fails to clean up must not break the swap
            pass


def make_slot(runtime: ExtensionRuntime, slot: str, factory: Any) -> SlotSpec | None:
    """The :class:`SlotSpec` for ``ctx.ui.set_<slot>(factory)`` (None clears); raises ``TypeError`` for a
    factory that is not callable."""
    if factory is None:
        return None
    if not callable(factory):
        raise TypeError(f"set_{slot} needs a factory function (tui, theme, ...) -> component, or None")

    def report(spec: SlotSpec, exc: BaseException) -> None:
        runtime.runner.fail(spec.owner, f"ui.{spec.slot}", exc)

    return SlotSpec(slot, factory, owner_of(runtime, factory), report)
