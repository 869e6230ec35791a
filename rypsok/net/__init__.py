"""Network pieces shared by web_search and web_fetch (neither imports the other)."""
