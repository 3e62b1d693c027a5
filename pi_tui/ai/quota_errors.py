"""Errors that say a quota, a bill or a usage cap was hit: no retry helps until the user acts.

One list for both retry layers: the provider's HTTP retry (:func:`.providers._http.is_retryable_status`) and
the coding agent's auto-retry (:func:`pi_tui.coding.retry.is_retryable_error`). pi 0.76.0 stopped retrying
quota/billing 429s; pi 1.5.0 added usage caps such as Zhipu/Z.ai's code 1308. Matched case-insensitively
anywhere in the error text or response body; ``1308`` only as a whole number.
"""

from __future__ import annotations

import re

QUOTA_ERROR_PATTERN = re.compile(
    r"insufficient.?quota|exceeded your current quota|quota exceeded|billing|credit balance|"
    r"usage.?limit|payment required|\b1308\b|plan (?:limit|does not)",
    re.IGNORECASE,
)
"""Quota, billing and usage-cap wordings (OpenAI ``insufficient_quota``, Anthropic "credit balance is too low",
HTTP 402 "Payment Required", Zhipu 1308 "Usage limit reached", "your plan does not include ...")."""


def is_quota_error(text: str) -> bool:
    """Does ``text`` (an error message or a response body) say a quota, bill or usage cap was hit?"""
    return QUOTA_ERROR_PATTERN.search(text) is not None


__all__ = ["QUOTA_ERROR_PATTERN", "is_quota_error"]
