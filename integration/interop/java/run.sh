#!/usr/bin/env bash
# run.sh VERSION ARGS…: run paimon-interop built against paimon-bundle VERSION
# (mvn package [-Dpaimon.version=VERSION] first).
set -euo pipefail
dir="$(cd "$(dirname "$0")" && pwd)/target/paimon-$1"
shift
# C1 only and the serial collector: the tool's runs are short, and on the
# 2-core CI machine C2's compiler threads cost more CPU than they save
# (the interop tests' Java CPU time about halves).
exec java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$dir/paimon-interop.jar:$(cat "$dir/classpath.txt")" org.lakesql.interop.PaimonTool "$@"
