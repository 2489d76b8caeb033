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

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RedisServer#startReplicaOf(RedisServer, String...)} and
 * {@link RedisServer#awaitReplicasInSync(int)}.
 */
class RedisServerReplicationTests {

	@Test
	void replicaIsLinkedToItsPrimaryWhenStartReturnsAndReceivesItsWrites() {
		// given
		try (RedisServer primary = RedisServer.start()) {
			primary.command("SET", "before", "1");

			// when
			try (RedisServer replica = RedisServer.startReplicaOf(primary)) {
				primary.command("SET", "after", "2");
				primary.awaitReplicasInSync(1);

				// then
				assertThat(replica.info("replication")).contains("role:slave", "master_port:" + primary.port(),
						"master_link_status:up");
				assertThat(replica.command("GET", "before")).isEqualTo("1");
				assertThat(replica.command("GET", "after")).isEqualTo("2");
			}
		}
	}

	@Test
	void replicaOfPasswordProtectedPrimaryLogsInWithItsPassword() {
		// given
		try (RedisServer primary = RedisServer.start("--requirepass", "secret")) {
			// when
			try (RedisServer replica = RedisServer.startReplicaOf(primary, "--requirepass", "secret")) {
				primary.command("SET", "key", "value");
				primary.awaitReplicasInSync(1);

				// then
				assertThat(replica.command("CONFIG", "GET", "masterauth")).asList().contains("secret");
				assertThat(replica.command("GET", "key")).isEqualTo("value");
			}
		}
	}

	@Test
	void restartedReplicaFollowsItsPrimaryAgain() {
		// given
		try (RedisServer primary = RedisServer.start(); RedisServer replica = RedisServer.startReplicaOf(primary)) {
			replica.kill();
			primary.command("SET", "key", "value");

			// when
			replica.restart();
			primary.awaitReplicasInSync(1);

			// then
			assertThat(replica.command("GET", "key")).isEqualTo("value");
		}
	}

}
