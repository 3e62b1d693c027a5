"""The provider's HTTP retry and the agent's auto-retry share one quota/billing list (pi 0.76.0, 1.5.0).

They had two: ``_QUOTA_WORDS`` in the provider layer lacked "quota exceeded", "payment required", "usage-limit",
Zhipu's 1308 and "plan does not include", so such a 429 was retried up to three times by the provider (each
wait up to the server's delay) before the agent, which knew the wording, gave up at once.
"""

from __future__ import annotations

import pytest

from pi_tui.ai.providers._http import is_retryable_status
from pi_tui.coding.retry import is_retryable_error

QUOTA_BODIES = [
    '{"error":{"code":"insufficient_quota","message":"You exceeded your current quota, please check your plan and billing details."}}',
    '{"error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API."}}',
    '{"error":{"code":"1308","message":"Usage limit reached for 5 hour. Your limit will reset at 2026-01-01 10:00:00"}}',
    '{"error":{"message":"Quota exceeded for this API key"}}',
    '{"error":{"message":"Payment Required: add credits to continue"}}',
    '{"error":{"message":"Your plan does not include access to this model"}}',
    '{"error":{"message":"usage-limit hit for the month"}}',
]


@pytest.mark.parametrize("body", QUOTA_BODIES)
def test_both_layers_refuse_to_retry_quota_errors(body: str) -> None:
    assert not is_retryable_status(429, body)
    assert not is_retryable_error({"stopReason": "error", "errorMessage": f"429 {body}"})


@pytest.mark.parametrize("body", ['{"error":{"message":"Rate limit reached, retry in 2s"}}', "", "overloaded"])
def test_plain_rate_limits_are_still_retried_by_both(body: str) -> None:
    assert is_retryable_status(429, body)
    assert is_retryable_error({"stopReason": "error", "errorMessage": f"429 {body}".strip()})


def test_coding_imports_the_ai_list() -> None:
    from pi_tui.ai.quota_errors import QUOTA_ERROR_PATTERN
    from pi_tui.coding import retry

    assert retry.NOT_RETRYABLE_PATTERN is QUOTA_ERROR_PATTERN
