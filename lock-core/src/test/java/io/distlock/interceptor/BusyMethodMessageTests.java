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

package io.distlock.interceptor;

import java.lang.reflect.Method;
import java.time.Duration;

import io.distlock.LockAcquisitionException;
import io.distlock.annotation.DistributedLocked;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link BusyMethodMessage}. The messages of a real busy lock are in
 * {@code DistributedLockedIntegrationTests}.
 */
class BusyMethodMessageTests {

	@Test
	void busyLocksOfSeveralKeysNameTheMethodAndTheAnnotationsWaitTime() {
		LockOperation operation = operation("transfer", Duration.ofMillis(200));
		LockAcquisitionException busy = new LockAcquisitionException("account:1", Duration.ofMillis(201), null,
				"Could not take locks [account:1, account:2] of BusyMethodMessageTests.Orders.transfer within its "
						+ "wait time of 200ms (waited 201ms): lock 'account:1' stayed busy, held by another owner. To "
						+ "wait longer, give a longer wait time: LockRequest.Builder.waitTime(Duration)");

		LockAcquisitionException named = BusyMethodMessage.of(operation, busy);

		assertThat(named).hasMessage("Could not take locks [account:1, account:2] of BusyMethodMessageTests.Orders"
				+ ".transfer(long, long) within its wait time of 200ms (waited 201ms): lock 'account:1' stayed busy, "
				+ "held by another owner. To wait longer, raise waitTime (now '200ms') on @DistributedLocked of "
				+ "BusyMethodMessageTests.Orders.transfer(long, long)");
		assertThat(named.getKey()).isEqualTo("account:1");
		assertThat(named.getWaited()).isEqualTo(Duration.ofMillis(201));
	}

	@Test
	void interruptedWaitIsPassedOnAsItIs() {
		LockAcquisitionException interrupted = new LockAcquisitionException("account:1", Duration.ofMillis(5),
				"Interrupted after waiting 5ms for lock 'account:1'", new InterruptedException());

		assertThat(BusyMethodMessage.of(operation("transfer", Duration.ofMillis(200)), interrupted))
			.isSameAs(interrupted);
	}

	@Test
	void busyExceptionThatIsNotTheTemplatesIsPassedOnAsItIs() {
		LockAcquisitionException other = new LockAcquisitionException("account:1", Duration.ZERO, null,
				"Lock 'account:1' was lost by the outer call; the nested code did not run");

		assertThat(BusyMethodMessage.of(operation("transfer", Duration.ofMillis(200)), other)).isSameAs(other);
	}

	private static LockOperation operation(String methodName, Duration waitTime) {
		Method method = KeyExpressionParserTests.method(Orders.class, methodName);
		return new LockOperationBuilder(method).key(new KeyExpressionParser(null).parse("", "", method))
			.ttl(Duration.ofSeconds(10))
			.waitTime(waitTime)
			.lockName("BusyMethodMessageTests.Orders." + methodName)
			.build();
	}

	static class Orders {

		@DistributedLocked(keys = { "'account:' + #from", "'account:' + #to" }, waitTime = "200ms")
		public void transfer(long from, long to) {
		}

	}

}
