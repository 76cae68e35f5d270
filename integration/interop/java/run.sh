#!/usr/bin/env bash
# run.sh VERSION ARGS…: run paimon-interop built against paimon-bundle VERSION
# (mvn package [-Dpaimon.version=VERSION] first).
set -euo pipefail
dir="$(cd "$(dirname "$0")" && pwd)/target/paimon-$1"
shift
exec java -cp "$dir/paimon-interop.jar:$(cat "$dir/classpath.txt")" org.lakesql.interop.PaimonTool "$@"
