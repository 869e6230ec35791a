# rypsok's tasks. `just test` is what CI runs.

default: test

mcpb_version := "2.1.2"

# ruff, then every test in tests/ and properties/ (the shared-state tests start redis-server,
# the bundle's test runs `just bundle`, which needs the mcpb CLI)
test: redis mcpb
    ruff check .
    ruff format --check .
    python -m pytest -q -p no:cacheprovider tests properties

# redis-server for the shared-state tests: installed with apt where it is missing
redis:
    #!/usr/bin/env sh
    if command -v redis-server >/dev/null 2>&1 || command -v valkey-server >/dev/null 2>&1; then
        exit 0
    fi
    if command -v apt-get >/dev/null 2>&1; then
        echo "installing redis-server (the shared-state tests run against it)"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq && apt-get install -y -qq redis-server >/dev/null && exit 0
        echo "apt-get could not install redis-server (it needs root)" >&2
    fi
    echo "install Redis 7 (redis-server) or Valkey 8 (valkey-server): the shared-state tests need one" >&2
    exit 1

# valkey-server too (Valkey 8, from Debian's bookworm-backports, which the system's apt
# sources leave out): the shared-state tests then run against both servers
valkey:
    #!/usr/bin/env sh
    set -e
    if command -v valkey-server >/dev/null 2>&1; then
        exit 0
    fi
    sources=/etc/apt/sources.list.d/debian.sources
    if ! command -v apt-get >/dev/null 2>&1 || [ ! -f "$sources" ]; then
        echo "install Valkey 8 (valkey-server) by hand: this recipe needs Debian's apt" >&2
        exit 1
    fi
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
    mkdir -p "$dir/lists/partial"
    # the first stanza of the system's own Debian sources, for the backports suite only
    awk 'NF == 0 { exit } /^Suites:/ { print "Suites: bookworm-backports"; next } { print }' \
        "$sources" > "$dir/backports.sources"
    mkdir "$dir/parts" && mv "$dir/backports.sources" "$dir/parts/"
    apt="-o Dir::Etc::sourcelist=- -o Dir::Etc::sourceparts=$dir/parts -o Dir::State::Lists=$dir/lists"
    apt-get $apt update -qq
    (cd "$dir" && apt-get $apt -qq download valkey-server valkey-tools)
    chmod 644 "$dir"/*.deb
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$dir"/valkey-*.deb >/dev/null
    valkey-server --version

# the mcpb CLI (@anthropic-ai/mcpb, pinned), installed with npm into .tools/ when missing
# (and Node.js with npm, with apt, where they are missing)
mcpb:
    #!/usr/bin/env sh
    if grep -qs '"version": "{{mcpb_version}}"' .tools/node_modules/@anthropic-ai/mcpb/package.json; then
        exit 0
    fi
    if ! command -v npm >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
        echo "installing nodejs and npm (the bundle's test makes the MCP Bundle with the mcpb CLI)"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null \
            || echo "apt-get could not install nodejs and npm (it needs root)" >&2
    fi
    if ! command -v npm >/dev/null 2>&1; then
        echo "install Node.js 18+ with npm: the MCP Bundle is made by its mcpb CLI" >&2
        exit 1
    fi
    echo "installing @anthropic-ai/mcpb@{{mcpb_version}} into .tools/"
    npm install --prefix .tools --no-audit --no-fund --loglevel=error \
        "@anthropic-ai/mcpb@{{mcpb_version}}" >/dev/null

# the MCP Bundle (one-click install in Claude Desktop): OUT/rypsok-<version>.mcpb
bundle OUT="dist": mcpb
    python -m bundle .tools/node_modules/.bin/mcpb "{{OUT}}"

# the wheel and the sdist in dist/, checked with twine
dist:
    python -m build
    twine check --strict dist/*.whl dist/*.tar.gz

# the MCP server on stdio
serve *ARGS:
    python -m rypsok serve {{ARGS}}

# one search with a per-engine timeline against the deadline
probe QUERY *ARGS:
    python -m rypsok probe "{{QUERY}}" {{ARGS}}

# every benchmark (needs the bench extra: pip install -e '.[dev,bench]'); ARGS e.g. --quick.
# Every script runs; the goals missed and the scripts that failed are listed at the end. Not
# run: the tools that compare two checkouts (rendering, instructions_against: --before or
# --baseline DIR) and the synthetic pages' writer and word lists (run by extraction.py).
bench *ARGS: redis
    #!/usr/bin/env bash
    out=$(mktemp)
    trap 'rm -f "$out"' EXIT
    misses=()
    for script in bench/[!_]*.py; do
        case "$script" in
            bench/rendering.py|bench/instructions_against.py|bench/synthetic_*.py) continue ;;
        esac
        echo "== $script"
        python "$script" {{ARGS}} 2>&1 | tee "$out"
        status=${PIPESTATUS[0]}
        missed=$(grep "MISSED" "$out")
        if [ -n "$missed" ]; then
            while IFS= read -r line; do misses+=("$script: $line"); done <<< "$missed"
        elif [ "$status" -ne 0 ]; then
            misses+=("$script: failed with status $status")
        fi
    done
    if [ ${#misses[@]} -gt 0 ]; then
        echo
        echo "== ${#misses[@]} goal(s) missed or script(s) failed:"
        printf '%s\n' "${misses[@]}"
        exit 1
    fi
    echo
    echo "== every goal met"

# train the instruction-like scorer and judge it leave-one-source-out (needs the bench extra and
# ../shared/bench/injection*); writes rypsok/hygiene/instructions/scorer_model.json.gz
train-instructions *ARGS:
    nice -n 10 python bench/_train_instructions.py {{ARGS}}
