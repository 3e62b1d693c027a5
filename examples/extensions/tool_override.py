"""Tool override: replace the built-in ``read`` with one that refuses secrets (``.env``, keys,
credentials, ``~/.ssh``, ``~/.aws``) and logs every access to ``read-access.log`` in the agent
folder, then lets the built-in do the reading (its look in the transcript is kept).
``pi-tui -e examples/extensions/tool_override.py``
"""

import os
import re
import time

from pi_tui.coding.config.paths import get_agent_dir
from pi_tui.coding.tools import ReadTool
from pi_tui.coding.tools.path_utils import resolve_read_path
from pi_tui.coding.tools.read import READ_DESCRIPTION, READ_PARAMETERS

SECRET = re.compile(r"(^|/)(\.env(\..+)?|id_(rsa|ed25519|ecdsa)|.*\.pem|(secrets?|credentials?)\.(json|ya?ml|toml))$"
                    r"|(^|/)\.(ssh|aws|gnupg)/", re.IGNORECASE)


def real_path(path, cwd):
    """``path`` as the built-in resolves it, symbolic links followed (a link cannot hide a secret)."""
    return os.path.realpath(resolve_read_path(path, cwd))


def activate(pi):
    builtin = {}

    def log(path, verdict):
        try:
            get_agent_dir().mkdir(parents=True, exist_ok=True)
            with open(get_agent_dir() / "read-access.log", "a", encoding="utf-8") as out:
                out.write(f"{time.strftime('%Y-%m-%dT%H:%M:%S')} {verdict} {path}\n")
        except OSError:
            pass  # logging never stops a read

    async def read(call_id, params, signal, on_update, ctx):
        path = real_path(str(params["path"]), ctx.cwd)
        if SECRET.search(path):
            log(path, "BLOCKED")
            raise PermissionError(f"{params['path']} looks like a secret: reading it is not allowed")
        log(path, "ALLOWED")
        tool = builtin.get(ctx.cwd) or builtin.setdefault(ctx.cwd, ReadTool(cwd=ctx.cwd))
        return await tool.execute(call_id, params, signal, on_update)

    pi.register_tool("read", READ_DESCRIPTION, READ_PARAMETERS, read, label="read",
                     prompt_snippet="Read file contents (secrets are refused)")
