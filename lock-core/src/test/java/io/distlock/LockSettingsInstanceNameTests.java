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

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for the instance name of {@link LockSettings}: the host and process id by
 * default, kept by derived settings, and refused by name when blank, too long or holding
 * a control character.
 */
class LockSettingsInstanceNameTests {

	@Test
	void defaultIsTheHostAndTheProcessId() {
		assertThat(LockSettings.defaults().getInstanceName()).isEqualTo(LockSettings.defaultInstanceName())
			.endsWith(":" + ProcessHandle.current().pid())
			.hasSizeLessThanOrEqualTo(LockSettings.MAX_INSTANCE_NAME_LENGTH);
	}

	@Test
	void nameIsKeptByDerivedSettings() {
		LockSettings settings = LockSettings.builder().instanceName("orders-1").build();
		LockSettings derived = settings.toBuilder().keyPrefix("other:").build();
		assertThat(derived.getInstanceName()).isEqualTo("orders-1");
		assertThat(settings.getKeyPrefix()).isEqualTo(LockSettings.DEFAULT_KEY_PREFIX);
	}

	@Test
	void blankNameIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> LockSettings.builder().instanceName(" "))
			.withMessage("'instanceName' must not be blank");
	}

	@Test
	void tooLongNameIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> LockSettings.builder().instanceName("x".repeat(101)))
			.withMessage("'instanceName' must be at most 100 characters but was 101");
	}

	@Test
	void nameWithAControlCharacterIsRefusedShowingItEscaped() {
		assertThatIllegalArgumentException().isThrownBy(() -> LockSettings.builder().instanceName("a\nb"))
			.withMessage("'instanceName' must not contain control characters but was 'a\\u000ab'");
	}

}
