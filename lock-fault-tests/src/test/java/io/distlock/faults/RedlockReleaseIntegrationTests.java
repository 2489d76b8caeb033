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

package io.distlock.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.distlock.LockBackendException;
import io.distlock.LockEvent;
import io.distlock.LockHandle;
import io.distlock.LockListener;
import io.distlock.LockSettings;
import io.distlock.LockTemplate;
import io.distlock.engine.LockEngine;
import io.distlock.redlock.RedlockClient;
import io.distlock.redlock.RedlockNodes;
import io.distlock.test.RedisServers;
import io.distlock.waiting.LockWaiter;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Releasing a Redlock lock while a majority of the nodes does not answer in time (frozen
 * here; in the restart-redlock scenario, slow on a busy machine): the lock was held the
 * whole time, so the release must fail as "backend unavailable", as an acquisition does,
 * instead of reporting that the lock had expired and may have had another owner.
 */
class RedlockReleaseIntegrationTests {

	private static final Duration NODE_TIMEOUT = Duration.ofMillis(200);

	/**
	 * A release that a majority of the nodes does not answer is a backend failure, not a
	 * lock that "had expired": counting a silent node as "not held" would raise a false
	 * alarm that another owner may have held the lock.
	 */
	@Test
	void releaseWithoutAMajorityAnsweringIsABackendFailureNotAMismatch() {
		List<String> mismatches = new ArrayList<>();
		try (RedisServers servers = RedisServers.start(5);
				RedlockNodes nodes = RedlockNodes.connect(servers.uris(), NODE_TIMEOUT);
				RedlockClient client = new RedlockClient(nodes.clients(), 0.01, NODE_TIMEOUT)) {
			LockTemplate template = new LockTemplate(new LockEngine(client, new LockWaiter(Duration.ofMillis(500)),
					LockSettings.builder().lockListeners(List.of(new LockListener() {

						@Override
						public void onReleaseMismatch(LockEvent.ReleaseMismatch event) {
							mismatches.add(event.key());
						}

					})).build()));
			LockHandle handle = acquire(template);
			servers.get(0).pause();
			servers.get(1).pause();
			servers.get(2).pause();
			Throwable thrown = catchThrowable(handle::close);
			servers.get(0).resume();
			servers.get(1).resume();
			servers.get(2).resume();
			assertThat(mismatches).as("releases reported as expired, with the lock held all along").isEmpty();
			assertThat(thrown).as("the release without a majority answering").isInstanceOf(LockBackendException.class);
		}
	}

	/**
	 * Acquire the lock, retrying while the first calls open the node connections.
	 */
	private static LockHandle acquire(LockTemplate template) {
		long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		while (true) {
			try {
				return template.tryAcquire("k", Duration.ofSeconds(30), Duration.ZERO).orElseThrow();
			}
			catch (LockBackendException ex) {
				if (System.nanoTime() - deadline > 0) {
					throw ex;
				}
			}
		}
	}

}
