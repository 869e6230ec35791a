"""rypsok's version and the User-Agent it sends: one home, imported by whatever needs them."""

__version__ = "0.1.0"
USER_AGENT = f"rypsok/{__version__} (+https://pypi.org/project/rypsok/)"
"""Sent to engines and sites: the ``rypsok`` product token robots.txt rules name, and the version."""
