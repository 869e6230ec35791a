"""Engine answers built in the tests, in each engine's documented shape."""

from __future__ import annotations

import json


def github_body(*items: tuple[str, str, str]) -> bytes:
    """A GitHub search/repositories answer with (html_url, full_name, description) items."""
    return json.dumps(
        {
            "total_count": len(items),
            "incomplete_results": False,
            "items": [
                {
                    "id": i,
                    "name": name.split("/")[-1],
                    "full_name": name,
                    "html_url": url,
                    "description": description,
                    "fork": False,
                    "owner": {"login": name.split("/")[0], "type": "User"},
                    "created_at": "2020-01-01T00:00:00Z",
                    "updated_at": "2026-09-30T10:00:00Z",
                    "pushed_at": "2026-09-30T09:58:12Z",
                    "stargazers_count": 10,
                    "language": "Python",
                    "score": 1.0,
                }
                for i, (url, name, description) in enumerate(items)
            ],
        }
    ).encode()


def stackexchange_body(*items: tuple[str, str]) -> bytes:
    """A Stack Exchange /search/advanced answer with (link, title) items."""
    return json.dumps(
        {
            "items": [
                {
                    "tags": ["python"],
                    "owner": {"display_name": "Jane", "user_id": 1},
                    "is_answered": True,
                    "view_count": 10,
                    "answer_count": 1,
                    "score": 3,
                    "last_activity_date": 1790000000,
                    "creation_date": 1700000000 + i,
                    "question_id": 1000 + i,
                    "content_license": "CC BY-SA 4.0",
                    "link": link,
                    "title": title,
                }
                for i, (link, title) in enumerate(items)
            ],
            "has_more": False,
            "quota_max": 300,
            "quota_remaining": 299,
        }
    ).encode()
