"""pi-ai data types: content blocks, messages, usage, model, tool and context (pi-reference §1.2–§1.7).

Python attributes are snake_case; the JSON form uses pi's camelCase names and literals, so
``msg.model_dump(mode="json", by_alias=True, exclude_none=True)`` is pi's JSON and
``AssistantMessage.model_validate(pi_json)`` loads it. Unknown fields are kept (``extra="allow"``).
Message timestamps are Unix milliseconds (int).
"""

from __future__ import annotations

import time
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.alias_generators import to_camel

StopReason = Literal["stop", "length", "toolUse", "error", "aborted"]
"""pi-reference §1.5."""

ThinkingLevel = Literal["minimal", "low", "medium", "high", "xhigh"]
ModelThinkingLevel = Literal["off", "minimal", "low", "medium", "high", "xhigh"]
THINKING_LEVELS: tuple[str, ...] = ("off", "minimal", "low", "medium", "high", "xhigh")


def now_ms() -> int:
    """Current time in Unix milliseconds (the unit of every message ``timestamp``)."""
    return int(time.time() * 1000)


class PiModel(BaseModel):
    """Base of every pi data type: camelCase aliases, populate by either name, unknown fields kept."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="allow",
        arbitrary_types_allowed=True,
    )

    def to_json_dict(self) -> dict[str, Any]:
        """pi's JSON form: camelCase keys, ``None`` fields omitted."""
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)


# ---------------------------------------------------------------- content blocks (§1.2)


class TextContent(PiModel):
    """``{type:"text", text, textSignature?}``."""

    type: Literal["text"] = "text"
    text: str = ""
    text_signature: str | None = None


class ThinkingContent(PiModel):
    """``{type:"thinking", thinking, thinkingSignature?, redacted?}``; redacted payload lives in the signature."""

    type: Literal["thinking"] = "thinking"
    thinking: str = ""
    thinking_signature: str | None = None
    redacted: bool | None = None


class ImageContent(PiModel):
    """``{type:"image", data (base64), mimeType}``."""

    type: Literal["image"] = "image"
    data: str
    mime_type: str


class ToolCall(PiModel):
    """``{type:"toolCall", id, name, arguments (always a dict), thoughtSignature?}``."""

    type: Literal["toolCall"] = "toolCall"
    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    thought_signature: str | None = None


UserContent = Annotated[TextContent | ImageContent, Field(discriminator="type")]
AssistantContent = Annotated[TextContent | ThinkingContent | ToolCall, Field(discriminator="type")]
ToolResultContent = Annotated[TextContent | ImageContent, Field(discriminator="type")]
Content = Annotated[TextContent | ThinkingContent | ImageContent | ToolCall, Field(discriminator="type")]


# ---------------------------------------------------------------- usage (§1.4)


class UsageCost(PiModel):
    """Dollar cost per component; ``total`` is their sum, or the provider's own billing figure when
    ``total_from_provider`` is true (OpenRouter, pi 1.5.0; the components then stay catalogue estimates)."""

    input: float = 0
    output: float = 0
    cache_read: float = 0
    cache_write: float = 0
    total: float = 0
    total_from_provider: bool | None = None


class Usage(PiModel):
    """Normalised token usage: ``input`` excludes cached prompt tokens; ``output`` includes reasoning."""

    input: int = 0
    output: int = 0
    cache_read: int = 0
    cache_write: int = 0
    total_tokens: int = 0
    cost: UsageCost = Field(default_factory=UsageCost)
    cache_write_1h: int | None = Field(default=None, alias="cacheWrite1h")
    """Of ``cache_write``, the tokens written with the 1-hour lifetime (Anthropic's
    ``cache_creation.ephemeral_1h_input_tokens``), priced at twice the input rate (pi 0.99.0); None = unknown."""


# ---------------------------------------------------------------- messages (§1.3)


class UserMessage(PiModel):
    """``{role:"user", content: string | (text|image)[], timestamp}``."""

    role: Literal["user"] = "user"
    content: str | list[UserContent]
    timestamp: int = Field(default_factory=now_ms)


class AssistantMessage(PiModel):
    """An LLM reply. ``model`` is the requested id; errors/aborts keep partial content and set ``error_message``."""

    role: Literal["assistant"] = "assistant"
    content: list[AssistantContent] = Field(default_factory=list)
    api: str = ""
    provider: str = ""
    model: str = ""
    response_model: str | None = None
    response_id: str | None = None
    diagnostics: list[dict[str, Any]] | None = None
    usage: Usage = Field(default_factory=Usage)
    stop_reason: StopReason = "stop"
    error_message: str | None = None
    timestamp: int = Field(default_factory=now_ms)


class ToolResultMessage(PiModel):
    """``{role:"toolResult", toolCallId, toolName, content, details?, isError, timestamp}``; details never reach the LLM."""

    role: Literal["toolResult"] = "toolResult"
    tool_call_id: str
    tool_name: str
    content: list[ToolResultContent] = Field(default_factory=list)
    details: Any = None
    is_error: bool = False
    timestamp: int = Field(default_factory=now_ms)


Message = Annotated[UserMessage | AssistantMessage | ToolResultMessage, Field(discriminator="role")]
LLM_ROLES: frozenset[str] = frozenset({"user", "assistant", "toolResult"})


# ---------------------------------------------------------------- model (§1.7)


InputKind = Literal["text", "image"]


def _default_input() -> list[InputKind]:
    return ["text"]


class _Prices(PiModel):
    """Dollars per million tokens. A negative price is 0: OpenRouter's router models (``openrouter/auto``) carry
    a placeholder of -1,000,000 that showed as -$1,000,000 per 1M tokens and negative session costs (pi 1.2.0)."""

    input: float = 0
    output: float = 0
    cache_read: float = 0
    cache_write: float = 0

    @field_validator("input", "output", "cache_read", "cache_write", mode="after")
    @classmethod
    def _no_negative_price(cls, value: float) -> float:
        return value if value >= 0 else 0


class CostTier(_Prices):
    """A request-wide price tier: these prices apply to the whole request when its input (``input`` +
    ``cacheRead`` + ``cacheWrite`` tokens) exceeds ``input_tokens_above`` (pi 0.80.6, docs/models.md
    ``cost.tiers``; e.g. GPT-5.4 above 272K input tokens)."""

    input_tokens_above: int


class ModelCost(_Prices):
    """Dollars per million tokens (see :class:`_Prices`), with optional long-context ``tiers`` (pi 0.80.6)."""

    tiers: list[CostTier] | None = None


class Model(PiModel):
    """A model description. ``Model(id=..., api=..., provider=..., base_url=...)`` alone is valid.

    Defaults follow pi's models.json (pi-reference §3.16): ``name`` = id, ``reasoning`` False,
    ``input`` ["text"], zero cost, ``context_window`` 128000, ``max_tokens`` 16384.
    ``thinking_level_map`` is tri-state per key (missing / literal / None = unsupported, §1.7);
    ``compat`` holds the api-specific compatibility flags of §1.9 as a camelCase dict.
    """

    id: str
    name: str = ""
    api: str
    provider: str
    base_url: str = ""
    reasoning: bool = False
    thinking_level_map: dict[str, str | None] | None = None
    input: list[InputKind] = Field(default_factory=_default_input)
    cost: ModelCost = Field(default_factory=ModelCost)
    context_window: int = 128000
    max_tokens: int = 16384
    headers: dict[str, str] | None = None
    compat: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _default_name(self) -> Model:
        if not self.name:
            self.name = self.id
        return self


# ---------------------------------------------------------------- tool and context (§1.6)


class Tool(PiModel):
    """``{name, description, parameters}``; ``parameters`` is a JSON Schema object."""

    name: str
    description: str = ""
    parameters: dict[str, Any] = Field(default_factory=lambda: {"type": "object", "properties": {}})


class Context(PiModel):
    """What one LLM request sees: system prompt, messages and tools (plain, replayable JSON)."""

    system_prompt: str | None = None
    messages: list[Message] = Field(default_factory=list)
    tools: list[Tool] | None = None
