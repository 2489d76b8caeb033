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

package io.distlock;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LockAcquisitionException}.
 */
class LockAcquisitionExceptionTests {

	@Test
	void busyExceptionWithoutAWaitTimeSaysHowLongTheCallerWaitedNotThatItWasItsWaitTime() {
		LockAcquisitionException busy = new LockAcquisitionException("order:42", Duration.ofMillis(2));

		assertThat(busy).hasMessage("Lock 'order:42' was not acquired: held by another owner (waited 2ms)");
		assertThat(busy.getWaited()).isEqualTo(Duration.ofMillis(2));
	}

}
