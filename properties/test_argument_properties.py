"""A null optional argument is that argument left out, whatever else the call holds.

Agent frameworks send null for "not given" (docs/tools.md): for every optional argument of
every tool, adding it as null changes neither the request rypsok builds nor the error it
answers.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rypsok import errors, schemas, validate
from rypsok.config import Config, config_from_dict

SETTINGS = settings(max_examples=200, deadline=None)
CONFIGS = [
    config_from_dict({}, env={}),
    config_from_dict({"search": {"languages": ["de", "en", "fr"], "max_results": 7}}, env={}),
]
VALUES = st.one_of(
    st.sampled_from(["general", "code", "news", "de", "fr", "xx", "day", "year", ""]),
    st.integers(-5, 30_000),
    st.sampled_from([True, 2.0, 2.5, [], {}, "https://example.org/", "asyncio"]),
)


def answer(check, arguments: dict, *config: Config) -> object:
    """The request built, or the error's JSON."""
    try:
        return check(arguments, *config)
    except errors.ToolError as error:
        return error.to_json()


def optional_names(schema: dict) -> list[str]:
    return [name for name in schema["properties"] if name not in schema["required"]]


@given(st.sampled_from(CONFIGS), st.data())
@SETTINGS
def test_a_null_optional_argument_is_the_argument_left_out(config: Config, data):
    tools = [
        (validate.search_request, schemas.search_input(config), ["language"]),
        (validate.fetch_request, schemas.fetch_input(config), []),
    ]
    for check, schema, also_accepted in tools:
        optional = optional_names(schema) + also_accepted
        given_names = data.draw(st.lists(st.sampled_from(list(schema["properties"]))))
        arguments = {name: data.draw(VALUES) for name in given_names}
        left_out = [name for name in optional if name not in arguments]
        nulls = data.draw(st.lists(st.sampled_from(left_out), unique=True)) if left_out else []
        with_nulls = {**arguments, **dict.fromkeys(nulls)}
        assert answer(check, with_nulls, config) == answer(check, arguments, config), nulls
