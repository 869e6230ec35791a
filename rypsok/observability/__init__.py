"""What an operator sees: the JSON log (log.py), the Observer the Client reports metrics to
(observer.py) and the OpenTelemetry spans (telemetry.py)."""
