#!/usr/bin/env bash
# test.sh: run all of polyproxy's tests with the race detector, installing
# what they need first (scripts/setup.sh). Exits non-zero when a test fails.
# Extra arguments go to go test, e.g. ./scripts/test.sh -run Config -v
# With CI set (CI=true), cached test results are not used: every test runs.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
command -v go >/dev/null || export PATH="/usr/local/go/bin:$PATH"
go test -race -timeout 10m ${CI:+-count=1} "$@" ./...
