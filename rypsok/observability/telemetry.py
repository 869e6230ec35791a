"""OpenTelemetry traces, exported over OTLP when ``[telemetry]`` or the standard
``OTEL_EXPORTER_OTLP_*`` variables name a collector; off, and free, otherwise.

rypsok's code opens its spans through :data:`tracer`, a tracer of the OpenTelemetry API
(which the mcp SDK already loads): until :func:`start` installs the SDK's tracer provider,
every span is a non-recording one that costs a few microseconds. The mcp SDK opens the span
of each tools/call itself, continuing the W3C trace context a client puts in the request's
``_meta``; over HTTP, :func:`context_of_headers` continues a ``traceparent`` header.

Span attributes hold only fixed vocabularies and numbers (tool names, engine ids, outcomes,
reasons, stages, statuses, milliseconds, byte counts): never a query, a URL, page text, a
token or an address.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterable
from typing import Any

from opentelemetry import context, propagate, trace

from rypsok.config import ConfigError, TelemetryConfig
from rypsok.version import __version__

log = logging.getLogger("rypsok.telemetry")

tracer = trace.get_tracer("rypsok", __version__)

NO_SPAN = contextlib.nullcontext(trace.INVALID_SPAN)


def tracing() -> bool:
    """Whether a tracer provider is installed (by :func:`start`, or a test's in-memory one):
    until then spans are not opened and an HTTP ``traceparent`` is not read."""
    return not isinstance(trace.get_tracer_provider(), trace.ProxyTracerProvider)


def span(name: str) -> contextlib.AbstractContextManager[trace.Span]:
    """A span of the current trace, or, while nothing is tracing (the default), a no-op that
    costs a fraction of the API's own no-op span. An exception's text (which may quote a
    query or a URL) is never recorded: each span says its outcome in its attributes instead."""
    if not tracing():
        return NO_SPAN
    return tracer.start_as_current_span(name, record_exception=False, set_status_on_exception=False)


EXPORT_TIMEOUT_S = 5
"""How long one export may take, the last one at exit included."""


def start(config: TelemetryConfig) -> Callable[[], None] | None:
    """Install a tracer provider exporting to the configured collector; returns the function
    that flushes and stops it at exit, or None when telemetry is off."""
    if not config.traces_url:
        return None
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
    except ImportError:
        raise ConfigError(
            "telemetry", "exporting traces needs the otel extra: pip install 'rypsok[otel]'"
        ) from None
    resource = Resource.create(
        {"service.name": config.service_name, "service.version": __version__}
    )
    provider = TracerProvider(resource=resource)
    exporter = OTLPSpanExporter(endpoint=config.traces_url, timeout=EXPORT_TIMEOUT_S)
    provider.add_span_processor(BatchSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    log.info("telemetry_started", extra={"fields": {"protocol": config.protocol}})

    return provider.shutdown  # exports what is queued, within the exporter's own timeout


def context_of_headers(headers: Iterable[tuple[bytes, bytes]]) -> Any:
    """The trace context an HTTP request's ``traceparent`` (and ``tracestate``) carry, to
    attach while it is answered; None when it carries none."""
    carrier = {
        name.decode("latin-1").lower(): value.decode("latin-1")
        for name, value in headers
        if name.lower() in (b"traceparent", b"tracestate")
    }
    if "traceparent" not in carrier:
        return None
    found = propagate.extract(carrier)
    if not trace.get_current_span(found).get_span_context().is_valid:
        return None
    return found


def attach(found: Any) -> object | None:
    return None if found is None else context.attach(found)


def detach(token: object | None) -> None:
    if token is not None:
        context.detach(token)
