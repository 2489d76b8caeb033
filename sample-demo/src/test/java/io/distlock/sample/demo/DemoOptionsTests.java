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

package io.distlock.sample.demo;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link DemoOptions}.
 */
class DemoOptionsTests {

	@Test
	void defaults() {
		DemoOptions options = DemoOptions.parse("--demo");
		assertThat(options).isEqualTo(new DemoOptions(2, 200, 50, true, List.of()));
		assertThat(options.hasExternalRedis()).isFalse();
	}

	@Test
	void sizes() {
		DemoOptions options = DemoOptions.parse("--demo", "--demo.nodes=3", "--demo.buyers=500", "--demo.stock=100",
				"--demo.long-work=false");
		assertThat(options.nodes()).isEqualTo(3);
		assertThat(options.buyers()).isEqualTo(500);
		assertThat(options.stock()).isEqualTo(100);
		assertThat(options.longWork()).isFalse();
	}

	@Test
	void externalRedis() {
		assertThat(DemoOptions.parse("--demo", "--spring.data.redis.url=redis://127.0.0.1:6379").hasExternalRedis())
			.isTrue();
		DemoOptions options = DemoOptions.parse("--demo", "--spring.data.redis.host=127.0.0.1",
				"--spring.data.redis.port=6380", "--server.port=1");
		assertThat(options.hasExternalRedis()).isTrue();
		assertThat(options.redisArguments()).containsExactly("--spring.data.redis.host=127.0.0.1",
				"--spring.data.redis.port=6380");
		assertThat(DemoOptions.parse("--demo", "--spring.data.redis.password=secret").hasExternalRedis()).isFalse();
	}

	@Test
	void invalid() {
		assertThatIllegalArgumentException().isThrownBy(() -> DemoOptions.parse("--demo.buyers=many"))
			.withMessage("--demo.buyers must be a whole number, not 'many'");
		assertThatIllegalArgumentException().isThrownBy(() -> DemoOptions.parse("--demo.nodes=0"));
	}

}
