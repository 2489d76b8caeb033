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

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RedisServers}.
 */
class RedisServersTests {

	@Test
	void startsFiveServersOnDistinctPorts() {
		// when
		try (RedisServers servers = RedisServers.start(5)) {
			// then
			assertThat(servers.size()).isEqualTo(5);
			assertThat(servers.list()).extracting(RedisServer::port).doesNotHaveDuplicates();
			assertThat(servers.uris()).doesNotHaveDuplicates().allMatch((uri) -> uri.startsWith("redis://127.0.0.1:"));
			assertThat(servers.list()).allSatisfy((server) -> assertThat(server.command("PING")).isEqualTo("PONG"));
		}
	}

	@Test
	void passesExtraArgumentsToEveryServer() {
		// when
		try (RedisServers servers = RedisServers.start(2, "--requirepass", "secret")) {
			// then
			assertThat(servers.list()).extracting(RedisServer::password).containsExactly("secret", "secret");
		}
	}

	@Test
	void killingOneServerLeavesTheOthersRunning() {
		// given
		try (RedisServers servers = RedisServers.start(3)) {
			// when
			servers.get(1).kill();

			// then
			assertThat(servers.list()).extracting(RedisServer::isRunning).containsExactly(true, false, true);
			assertThat(servers.get(2).command("PING")).isEqualTo("PONG");
		}
	}

	@Test
	void closeStopsEveryServer() {
		// given
		RedisServers servers = RedisServers.start(3);
		servers.get(0).pause();
		servers.get(1).kill();
		List<Long> pids = List.of(servers.get(0).pid(), servers.get(2).pid());

		// when
		servers.close();

		// then
		assertThat(pids).noneMatch((pid) -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
	}

}
