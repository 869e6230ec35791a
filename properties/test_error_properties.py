"""Properties of error messages: bounded by construction, whatever the caller sends.

Every refusal of a tool's arguments is a ToolError whose message is at most 200 characters,
shows only visible characters and never echoes a secret; building one never raises.
"""

from __future__ import annotations

import random
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from rypsok import bounds, errors, validate
from rypsok.config import config_from_dict
from rypsok.hygiene import text

SETTINGS = settings(max_examples=150, deadline=None)
CONFIGS = [
    config_from_dict({}, env={}),
    config_from_dict({"search": {"languages": ["de", "en", "fr"]}}, env={}),
]
KNOWN_NAMES = ["query", "category", "max_results", "language", "time_range"]
KNOWN_NAMES += ["url", "max_chars", "start_char", "name", "arguments"]


def github_token(seed: int) -> str:
    """A token of GitHub's shape, from a seed: text Hypothesis builds itself shrinks towards
    fillers such as ``0000``, which are not secrets on purpose."""
    rng = random.Random(seed)
    groups = (string.ascii_lowercase, string.ascii_uppercase, string.digits)
    while True:
        body = "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(36))
        if all(set(group) & set(body) for group in groups):
            return "ghp_" + body


TOKEN = st.integers(0, 2**32).map(github_token)
INVISIBLE = st.sampled_from(
    ["\u200b", "\u200d", "\ufe0f", "\u202e", "\U000e0041", "\x00", "\x85", "\u00a0", "\ud800"]
)
names = st.one_of(
    st.text(),
    st.text(min_size=200, max_size=2000),
    st.lists(INVISIBLE, min_size=1, max_size=300).map("".join),
    st.sampled_from(KNOWN_NAMES),
    st.tuples(st.text(max_size=30), TOKEN, st.text(max_size=30)).map(" ".join),
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(), children),
    max_leaves=6,
)
arguments = st.dictionaries(names, json_values, max_size=4)


def assert_bounded(error: errors.ToolError) -> None:
    assert len(error.message) <= bounds.MAX_MESSAGE_CHARS
    assert all(ch.isprintable() and not text.invisible(ch) for ch in error.message)
    assert error.kind in {"invalid_request", "denied"}
    assert error.to_json()["error"]["message"] == error.message


def refusal(check, *args) -> errors.ToolError | None:
    try:
        check(*args)
    except errors.ToolError as exc:
        return exc
    return None


@given(arguments, st.sampled_from(CONFIGS))
@SETTINGS
def test_every_refusal_of_search_arguments_is_bounded(args, config):
    error = refusal(validate.search_request, args, config)
    if error is not None:
        assert_bounded(error)


@given(arguments, st.sampled_from(CONFIGS))
@SETTINGS
def test_every_refusal_of_fetch_arguments_is_bounded(args, config):
    error = refusal(validate.fetch_request, args, config)
    if error is not None:
        assert_bounded(error)


@given(arguments)
@SETTINGS
def test_every_refusal_of_status_arguments_is_bounded(args):
    error = refusal(validate.status_request, args)
    assert (error is None) == (not args)
    if error is not None:
        assert_bounded(error)


@given(names, st.lists(st.text(), max_size=40))
@SETTINGS
def test_unknown_parameter_quotes_any_name_within_the_bound(name, allowed):
    error = errors.unknown_parameter(name, allowed)
    assert_bounded(error)
    assert error.detail["allowed"] == allowed
    assert len(error.detail["parameter"]) <= errors.ECHOED_NAME_CHARS
    error.detail["parameter"].encode("utf-8")  # a lone surrogate could not go on the wire


@given(st.text(alphabet=" =:-'\u200b", max_size=20), TOKEN, st.text(max_size=20))
@SETTINGS
def test_a_secret_in_a_parameter_name_is_never_echoed(before, token, after):
    error = errors.unknown_parameter(before + token + " " + after, ["query"])
    assert_bounded(error)
    assert token not in error.message and token[:12] not in error.message
    assert token[4:12] not in error.detail["parameter"]
    # the mask is shown whole, unless the quote was cut before it (a long escaped prefix)
    assert "***" in error.message or (errors.ELLIPSIS in error.message and "*" not in error.message)


@given(st.text(max_size=1000), st.text(max_size=100))
@SETTINGS
def test_a_tool_error_never_raises_and_is_bounded(message, parameter):
    assert len(errors.ToolError("invalid_request", message).message) <= bounds.MAX_MESSAGE_CHARS
    assert len(errors.not_allowed(parameter, [message]).message) <= bounds.MAX_MESSAGE_CHARS


@given(st.text(max_size=300), st.integers(min_value=3, max_value=200))
@SETTINGS
def test_a_quote_fits_its_limit_and_says_when_it_was_cut(caller_text, limit):
    quoted = errors.quote(caller_text, limit)
    assert len(quoted) <= limit
    assert quoted.startswith("'") and quoted.endswith("'")
    if all(ch.isprintable() and not text.invisible(ch) and ch != "\\" for ch in caller_text):
        shown = quoted[1:-1]
        assert shown == caller_text or (
            shown.endswith(errors.ELLIPSIS) and caller_text.startswith(shown[:-1])
        )
