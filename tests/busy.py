"""Work that never ends, for the worker tests: importable by a worker process, which loads
this module by name to run it (so it imports nothing)."""


def spin(*args: object) -> None:
    """Keep a core busy until killed."""
    while True:
        pass


def wait_for(path: str, padding: bytes) -> int:
    """Wait until ``path`` exists; this process's id. ``padding`` makes the call as big as
    the test needs."""
    import os
    import time

    while not os.path.exists(path):
        time.sleep(0.01)
    return os.getpid()
