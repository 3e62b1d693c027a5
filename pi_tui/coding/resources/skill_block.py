"""Reading a skill block back out of a user message (pi's ``parseSkillBlock``), with no other import: the
transcript shows such a message collapsed from the first screen of a resumed session on (issue 15), before the
skill loader (front matter, YAML, ignore rules) is needed. ``skills.skill_block`` writes the block."""

from __future__ import annotations

import re

_SKILL_BLOCK = re.compile(r'^<skill name="([^"]+)" location="([^"]+)">\n([\s\S]*?)\n</skill>(?:\n\n([\s\S]+))?\Z')


def parse_skill_block(text: str) -> tuple[str, str, str, str | None] | None:
    """``(name, location, content, user message or None)`` of a message made by ``skills.skill_block``, or
    ``None`` (pi's ``parseSkillBlock``; front ends use it to show the block collapsed)."""
    match = _SKILL_BLOCK.match(text)
    if match is None:
        return None
    user = match.group(4).strip() if match.group(4) else None
    return match.group(1), match.group(2), match.group(3), user or None
