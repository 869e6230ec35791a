"""web_fetch: egress policy, robots.txt, transport, extraction and paging of one public page."""
