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

package io.distlock.engine;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link OwnerTokens}.
 */
class OwnerTokensTests {

	@Test
	void tokensAreDistinctRandomUuids() {
		OwnerTokens tokens = new OwnerTokens();
		Set<String> seen = new HashSet<>();
		for (int i = 0; i < 10_000; i++) {
			String token = tokens.next();
			UUID uuid = UUID.fromString(token);
			assertThat(uuid.version()).isEqualTo(4);
			assertThat(uuid.variant()).isEqualTo(2);
			assertThat(seen.add(token)).isTrue();
		}
	}

	@Test
	void twoGeneratorsDoNotRepeatEachOther() {
		assertThat(new OwnerTokens().next()).isNotEqualTo(new OwnerTokens().next());
	}

}
