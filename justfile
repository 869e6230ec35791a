# rypsok's tasks. `just test` is what CI runs.

default: test

# ruff, then every test in tests/ and properties/
test:
    ruff check .
    ruff format --check .
    python -m pytest -q -p no:cacheprovider tests properties

# the MCP server on stdio
serve *ARGS:
    python -m rypsok serve {{ARGS}}

# one search with a per-engine timeline against the deadline
probe QUERY *ARGS:
    python -m rypsok probe "{{QUERY}}" {{ARGS}}

# every benchmark (needs the bench extra: pip install -e '.[dev,bench]'); ARGS e.g. --quick
bench *ARGS:
    for script in bench/[!_]*.py; do echo "== $script"; python "$script" {{ARGS}} || exit 1; done
