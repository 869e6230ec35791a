"""Retry-After read once (rypsok/net/retry_after.py), with the engines' and the fetches' policies."""

from __future__ import annotations

import datetime as dt
import email.utils

import httpx
import pytest

from rypsok.engines.base import retry_after_seconds
from rypsok.net.retry_after import read_retry_after
from rypsok.webfetch.page import retry_after_ms

NOW = dt.datetime(2026, 10, 21, 7, 27, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("120", 120.0),
        (" 7 ", 7.0),
        ("0", 0.0),
        ("Wed, 21 Oct 2026 07:28:00 GMT", 60.0),
        ("Wed, 21 Oct 2026 07:28:00 -0000", 60.0),  # no zone: UTC
        ("Wed, 21 Oct 2026 09:28:00 +0200", 60.0),
        ("Fri, 31 Dec 1999 23:59:59 GMT", 0.0),  # passed
        (None, None),
        ("", None),
        ("-5", None),
        ("1.5", None),
        ("soon", None),
        ("\u0663", None),  # a digit, but not an ASCII one (RFC 9110: DIGIT)
    ],
)
def test_delta_seconds_and_dates(value: str | None, seconds: float | None) -> None:
    assert read_retry_after(value, now=NOW) == seconds


def test_without_now_a_date_is_not_read() -> None:
    assert read_retry_after("Wed, 21 Oct 2026 07:28:00 GMT") is None
    assert read_retry_after("42") == 42.0


def test_engines_wait_for_a_date_from_the_clock() -> None:
    in_an_hour = dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)
    headers = httpx.Headers({"Retry-After": email.utils.format_datetime(in_an_hour, usegmt=True)})
    wait = retry_after_seconds(headers)
    assert wait is not None and 3590 <= wait <= 3600
    assert retry_after_seconds(httpx.Headers({"Retry-After": "30"})) == 30.0
    assert retry_after_seconds(httpx.Headers()) is None


def test_fetches_take_whole_seconds_up_to_an_hour_only() -> None:
    assert retry_after_ms("3600") == 3_600_000
    assert retry_after_ms("3601") is None
    assert retry_after_ms(email.utils.format_datetime(NOW, usegmt=True)) is None
