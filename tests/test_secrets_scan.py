"""The secrets check's one keyword scan for the token rules (secrets/tokens.py,
``token_rules_for``), against each rule checking its own keywords."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rypsok.hygiene import secrets as secrets_module
from rypsok.hygiene.secrets.percent import percent_decode
from rypsok.hygiene.secrets.tokens import TOKEN_RULES, token_rules_for
from tests.test_secrets import BENIGN_QUERIES, TOKEN_KINDS, make

_KEYWORD_TEXT = st.lists(
    st.sampled_from(sorted({k for rule in TOKEN_RULES for k in rule.keywords}))
    | st.text(alphabet=st.sampled_from(list("aksSKhpg_-:.3 xoy29")), max_size=6)
    | st.text(max_size=4)
    # a lone surrogate ("\ud800" is valid JSON): the scan's automaton reads UTF-8
    | st.text(alphabet=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), max_size=2),
    max_size=8,
).map("".join)


@settings(max_examples=2000)
@given(_KEYWORD_TEXT)
def test_the_token_rules_run_are_those_whose_keyword_the_text_holds(text: str) -> None:
    lowered = text.lower()
    assert token_rules_for(lowered) == [
        rule for rule in TOKEN_RULES if any(keyword in lowered for keyword in rule.keywords)
    ]


def _scan_the_long_way(text: str) -> list:
    decoded, starts = percent_decode(text)
    lowered = decoded.lower()
    found = []
    for finder in (*(rule.find for rule in TOKEN_RULES), *secrets_module._TEXT_FINDERS):
        for candidate in finder(decoded, lowered):
            if starts is not None:
                candidate = type(candidate)(
                    candidate.kind, starts[candidate.start], starts[candidate.end], candidate.rank
                )
            if candidate.end > candidate.start:
                found.append(candidate)
    return found


@settings(max_examples=300)
@given(
    st.builds(
        lambda kind, seed: f"key {make(kind, seed)} end",
        st.sampled_from(TOKEN_KINDS),
        st.integers(0, 50),
    )
    | st.sampled_from(BENIGN_QUERIES)
    | _KEYWORD_TEXT
)
def test_a_scan_finds_what_every_rule_run_on_its_own_finds(text: str) -> None:
    assert secrets_module._scan(text) == _scan_the_long_way(text)
