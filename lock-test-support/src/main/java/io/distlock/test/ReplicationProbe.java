/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package io.distlock.test;

import java.time.Duration;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks replication between {@link RedisServer} processes through
 * {@code INFO replication}: a replica's link to its primary, and how many replicas have
 * acknowledged a primary's writes.
 */
final class ReplicationProbe {

	// How long a new replica may take to connect to its primary and sync.
	static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final Pattern ACKNOWLEDGED = Pattern.compile(",offset=(\\d+)");

	private ReplicationProbe() {
	}

	/**
	 * Wait until the replica replicates the given primary with its link up.
	 */
	static void awaitReplicating(RedisServer replica, RedisServer primary, Duration timeout) {
		Polling.await(timeout, replica + " to replicate " + primary, () -> {
			String info = replica.info("replication");
			return "slave".equals(Polling.field(info, "role"))
					&& Integer.toString(primary.port()).equals(Polling.field(info, "master_port"))
					&& "up".equals(Polling.field(info, "master_link_status"));
		}, () -> "INFO replication of the replica:\n" + replica.info("replication") + "\nserver output:\n"
				+ tail(replica.output()));
	}

	/**
	 * Wait until at least the given number of replicas are online and have acknowledged
	 * everything the primary had written when the call began.
	 */
	static void awaitInSync(RedisServer primary, int count) {
		awaitInSync(primary, count, TIMEOUT, () -> "");
	}

	/**
	 * Wait as {@link #awaitInSync(RedisServer, int)} does, for the given time, adding the
	 * given description of the servers around the primary to a failure's message.
	 */
	static void awaitInSync(RedisServer primary, int count, Duration timeout, Supplier<String> others) {
		String offset = Polling.field(primary.info("replication"), "master_repl_offset");
		long written = (offset != null) ? Long.parseLong(offset) : 0;
		Polling.await(timeout, count + " replicas of " + primary + " to acknowledge replication offset " + written,
				() -> replicasInSync(primary, written) >= count,
				() -> "INFO replication:\n" + primary.info("replication") + others.get());
	}

	// Replicas listed as "slave0:ip=127.0.0.1,port=6380,state=online,offset=42,lag=0".
	private static int replicasInSync(RedisServer primary, long offset) {
		int inSync = 0;
		for (String line : primary.info("replication").split("\r\n")) {
			if (line.matches("slave\\d+:.*") && line.contains("state=online")) {
				Matcher acknowledged = ACKNOWLEDGED.matcher(line);
				if (acknowledged.find() && Long.parseLong(acknowledged.group(1)) >= offset) {
					inSync++;
				}
			}
		}
		return inSync;
	}

	private static String tail(String output) {
		return (output.length() <= 2000) ? output : "..." + output.substring(output.length() - 2000);
	}

}
