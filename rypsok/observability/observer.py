"""What the Client reports as it works, for whoever counts it (the HTTP server's metrics).

The default Observer does nothing, so the library, stdio and the CLI pay nothing. Every
argument is from a fixed vocabulary (tool names, outcomes, error kinds and reasons, engine
ids, failure reasons): never a query, a URL or a token, so each is safe as a metric label.
"""

from __future__ import annotations


class Observer:
    def call(self, tool: str, outcome: str, reason: str, duration_s: float) -> None:
        """One tool call ended: ``outcome`` is ok/partial/empty or the error kind; ``reason`` the
        error's ``ToolError.metric_reason`` (its detail.reason, or a finer cause; "" for none)."""

    def engine_request(self, engine: str, result: str, latency_s: float | None) -> None:
        """One request to an engine ended: ``result`` is "answered" or the failure reason."""

    def engine_usage(
        self, engine: str, unit: str, cost: float | None, balance: float | None
    ) -> None:
        """A paid engine's answer said what the call cost (``cost``) or what is left on the
        account (``balance``), in ``unit`` (usd or credits); None where it did not say."""

    def cache_lookup(self, engine: str, hit: bool) -> None:
        """The result cache was asked for one engine's answer."""

    def store_fallback(self, operation: str) -> None:
        """The shared state store did not answer in time and in-memory state was used."""


NOBODY = Observer()
