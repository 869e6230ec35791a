"""Hypothesis settings for the properties: no per-example time limit.

These properties state what the code does, not how fast (speed is measured in bench/); a
200 ms per-example deadline only turns a loaded CI machine into a flaky failure.
"""

from hypothesis import settings

settings.register_profile("rypsok", deadline=None)
settings.load_profile("rypsok")
