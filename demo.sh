#!/usr/bin/env bash
# The distlock demo, from a fresh clone with only a JDK 17+: builds the sample app and the
# modules it needs, then runs it with --demo (an embedded Redis, two JVM nodes of the
# sample shop, a race of concurrent buyers without and with @DistributedLocked).
# Arguments go to the demo: ./demo.sh --demo.nodes=3 --demo.buyers=500 --demo.stock=100
# Exit code: 0 if the locked runs kept the data right, 1 if not, 2 if the demo could not run.
set -euo pipefail
cd "$(dirname "$0")"
echo "Building the sample app (the first build downloads Maven and the dependencies)..."
./mvnw -B -ntp -q -pl sample-app -am package -DskipTests
exec "${JAVA_HOME:+$JAVA_HOME/bin/}java" -jar sample-app/target/sample-app.jar --demo "$@"
