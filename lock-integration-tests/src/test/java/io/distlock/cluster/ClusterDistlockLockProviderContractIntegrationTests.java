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

package io.distlock.cluster;

import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.test.support.AbstractExtensibleLockProviderIntegrationTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.distlock.shedlock.DistlockLockProvider;
import io.distlock.test.RedisClusterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ShedLock's own published contract suites for an extensible lock provider, unchanged,
 * run on {@link DistlockLockProvider} against a Redis Cluster of three primaries, whose
 * lock names hash to slots of all three.
 */
class ClusterDistlockLockProviderContractIntegrationTests extends AbstractExtensibleLockProviderIntegrationTest {

	@RegisterExtension
	static final RedisClusterExtension redis = RedisClusterExtension.of(3, 0);

	private ClusterApplication application;

	private DistlockLockProvider provider;

	@BeforeEach
	void createProvider() {
		this.application = ClusterApplication.start(redis.cluster());
		this.provider = new DistlockLockProvider(this.application.template);
	}

	@AfterEach
	void closeApplication() {
		this.application.close();
	}

	@Override
	protected ExtensibleLockProvider getLockProvider() {
		return this.provider;
	}

	@Override
	protected void assertUnlocked(String lockName) {
		assertThat(this.application.template.getEngine().inspect(lockName).held()).as("lock '%s' held", lockName)
			.isFalse();
	}

	@Override
	protected void assertLocked(String lockName) {
		assertThat(this.application.template.getEngine().inspect(lockName).held()).as("lock '%s' held", lockName)
			.isTrue();
	}

}
