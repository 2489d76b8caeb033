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

import io.distlock.store.FairLockClient;
import io.distlock.store.InspectableLockClient;
import io.distlock.store.LockClient;
import io.distlock.store.PermitLockClient;
import io.distlock.store.ReadWriteLockClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;

import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Every contract suite that applies to one store, from one short class: a store's test
 * extends this class and returns its client, connected to a real store that is empty for
 * each test.
 *
 * <pre class="code">
 * class MyStoreContractTests extends LockStoreContractTests {
 *
 *     &#64;Override
 *     protected LockClient client() {
 *         return this.client;
 *     }
 *
 * }
 * </pre>
 *
 * <p>
 * The suites run as nested classes, each only for a client with its capability, and are
 * reported as skipped otherwise: {@link LockClientContractTests} (or
 * {@link FairLockClientContractTests}, which includes it, for a {@link FairLockClient}),
 * {@link ReadWriteLockClientContractTests}, {@link PermitLockClientContractTests} and
 * {@link InspectableLockClientContractTests}. The enclosing class's extensions,
 * {@code @BeforeEach} methods and Spring test configuration apply to every nested suite,
 * so a store is set up once, in the subclass. The Spring TestContext framework is the
 * exception: it looks for a nested class's configuration on the class that declares it,
 * this one, so a test of a Spring-configured store starts its application in a
 * {@code @BeforeAll} method and takes the client from it, rather than autowiring it:
 * {@link SpringApplicationStoreContractTests} does that for a Spring Boot application.
 *
 * @see LockClientContractTests
 * @see SpringApplicationStoreContractTests
 */
public abstract class LockStoreContractTests {

	/**
	 * Return the client under test, connected to a store that is empty for each test.
	 * @return the client under test
	 */
	protected abstract LockClient client();

	// Checked before each test rather than when a test asks for the client: a test that
	// first asks from another thread or inside an expected-exception assertion would
	// report the failed assumption as a failure instead of a skip.
	private void assumeCapability(Class<?> capability) {
		LockClient client = client();
		assumeTrue(capability.isInstance(client),
				() -> client.getClass().getName() + " is not a " + capability.getSimpleName());
	}

	private <T> T clientAs(Class<T> capability) {
		return capability.cast(client());
	}

	/**
	 * {@link LockClientContractTests}, for a store without fair mode.
	 */
	@Nested
	@DisplayName("LockClient contract")
	class Exclusive extends LockClientContractTests {

		@BeforeEach
		void onlyWithoutFairMode() {
			assumeFalse(LockStoreContractTests.this.client() instanceof FairLockClient,
					"a fair store runs the fair contract, which includes this one");
		}

		@Override
		protected LockClient client() {
			return LockStoreContractTests.this.client();
		}

	}

	/**
	 * {@link FairLockClientContractTests}, for a {@link FairLockClient}.
	 */
	@Nested
	@DisplayName("FairLockClient contract")
	class Fair extends FairLockClientContractTests {

		@BeforeEach
		void onlyForAFairStore() {
			assumeCapability(FairLockClient.class);
		}

		@Override
		protected FairLockClient client() {
			return clientAs(FairLockClient.class);
		}

	}

	/**
	 * {@link ReadWriteLockClientContractTests}, for a {@link ReadWriteLockClient}.
	 */
	@Nested
	@DisplayName("ReadWriteLockClient contract")
	class ReadWrite extends ReadWriteLockClientContractTests {

		@BeforeEach
		void onlyForAStoreWithReadWriteLocks() {
			assumeCapability(ReadWriteLockClient.class);
		}

		@Override
		protected ReadWriteLockClient client() {
			return clientAs(ReadWriteLockClient.class);
		}

	}

	/**
	 * {@link PermitLockClientContractTests}, for a {@link PermitLockClient}.
	 */
	@Nested
	@DisplayName("PermitLockClient contract")
	class Permits extends PermitLockClientContractTests {

		@BeforeEach
		void onlyForAStoreWithPermits() {
			assumeCapability(PermitLockClient.class);
		}

		@Override
		protected PermitLockClient client() {
			return clientAs(PermitLockClient.class);
		}

	}

	/**
	 * {@link InspectableLockClientContractTests}, for an {@link InspectableLockClient}.
	 */
	@Nested
	@DisplayName("InspectableLockClient contract")
	class Inspection extends InspectableLockClientContractTests {

		@BeforeEach
		void onlyForAnInspectableStore() {
			assumeCapability(InspectableLockClient.class);
		}

		@Override
		protected InspectableLockClient client() {
			return clientAs(InspectableLockClient.class);
		}

	}

}
