"""merge.fuse's shortcuts (one answer: no sort; one appearance: no sum) against the long way."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from rypsok.engines.base import RawResult
from rypsok.metasearch import merge
from rypsok.model import Notices
from rypsok.net.egress import EgressPolicy

POLICY = EgressPolicy()

URLS = st.sampled_from(
    [
        "https://a.example/x",
        "https://a.example/x?utm_source=feed",
        "http://a.example/x",
        "https://A.example/x",
        "https://b.example/y?q=1&p=2",
        "https://b.example/y?p=2&q=1",
        "https://c.example/",
        "http://127.0.0.1/admin",
        "javascript:alert(1)",
        "https://d.example/%7Euser",
        "https://d.example/~user",
    ]
)
WEIGHTS = st.sampled_from([0.0, 0.5, 1.0, 2.0, math.inf, math.nan])
ANSWER = st.builds(
    merge.EngineAnswer,
    st.sampled_from(["brave", "mojeek", "wikipedia"]),
    WEIGHTS,
    st.booleans(),
    st.lists(st.builds(RawResult, st.just("t"), URLS), max_size=12),
)


def fuse_the_long_way(answers, policy, notices):
    """merge.fuse before its shortcuts: every entry's score summed, every list sorted."""
    merged: dict[str, merge.Merged] = {}
    weights = {a.engine: a.weight for a in answers}
    for answer in answers:
        seen_here: set[str] = set()
        for rank, raw in enumerate(answer.results, start=1):
            problem, url, key = merge.urls.judge_result_url(raw.url, policy)
            if problem is not None:
                notices.count("results_dropped", reason=problem)
                continue
            if key in seen_here:
                continue
            seen_here.add(key)
            entry = merged.setdefault(key, merge.Merged(key))
            entry.appearances.append(merge.Appearance(answer.engine, rank, url, raw))
    for entry in merged.values():
        entry.score = sum(weights[a.engine] / (merge.RRF_K + a.rank) for a in entry.appearances)
    return sorted(merged.values(), key=lambda m: (-m.score, m.best.rank, m.best.engine))


def described(ranked: list[merge.Merged]) -> list[tuple]:
    return [(m.key, repr(m.score), m.appearances) for m in ranked]


@settings(max_examples=1000)
@given(
    st.lists(ANSWER, min_size=1, max_size=3, unique_by=lambda a: a.engine)
    | st.lists(ANSWER, min_size=1, max_size=1)
)
def test_fusion_ranks_as_the_long_way_ranks(answers: list[merge.EngineAnswer]) -> None:
    notices, long_notices = Notices(), Notices()
    assert described(merge.fuse(answers, POLICY, notices)) == described(
        fuse_the_long_way(answers, POLICY, long_notices)
    )
    assert notices.to_json() == long_notices.to_json()
