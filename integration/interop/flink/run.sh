#!/usr/bin/env bash
# run.sh ARGS…: run flink-interop (Flink 1.20 MiniCluster, paimon-flink-1.20);
# mvn package first.
set -euo pipefail
dir="$(cd "$(dirname "$0")" && pwd)/target/flink-1.20"
# Flink on Java 17 needs these modules opened (as flink-conf.yaml's env.java.opts.all does).
opens=(--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED
	--add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED
	--add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
	--add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
	--add-opens=java.base/java.time=ALL-UNNAMED --add-opens=java.base/java.text=ALL-UNNAMED
	--add-opens=java.sql/java.sql=ALL-UNNAMED)
# C1 only: see java/run.sh.
exec java -XX:TieredStopAtLevel=1 -Xmx768m -XX:MaxDirectMemorySize=1536m "${opens[@]}" -cp "$dir/flink-interop.jar:$(cat "$dir/classpath.txt")" org.lakesql.interop.flink.FlinkTool "$@"
