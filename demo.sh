#!/usr/bin/env bash
# The distlock demo, from a fresh clone with only a JDK 17+: builds the demo (sample-demo),
# the sample shop and the modules they need, then runs it (an embedded Redis, two JVM nodes
# of the sample shop, a race of concurrent buyers without and with @DistributedLocked).
# Arguments go to the demo: ./demo.sh --demo.nodes=3 --demo.buyers=500 --demo.stock=100
# Exit code: 0 if the locked runs kept the data right, 1 if not, 2 if the demo could not run.
set -euo pipefail
cd "$(dirname "$0")"
echo "Building the demo and the sample app (the first build downloads Maven and the dependencies)..."
./mvnw -B -ntp -q -pl sample-demo -am package -DskipTests
exec "${JAVA_HOME:+$JAVA_HOME/bin/}java" -jar sample-demo/target/sample-demo.jar "$@"
