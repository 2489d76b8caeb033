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

package io.distlock.sample.shop;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Product}.
 */
class ProductTests {

	@Test
	void consistent() {
		Product product = new Product(1, "p", 50, 0, 50, 0);
		assertThat(product.oversold()).isZero();
		assertThat(product.lostUpdates()).isZero();
	}

	@Test
	void oversoldWithLostUpdates() {
		// 200 orders, but the stock counter only went from 50 to 45.
		Product product = new Product(1, "p", 50, 45, 200, 0);
		assertThat(product.oversold()).isEqualTo(150);
		assertThat(product.lostUpdates()).isEqualTo(195);
	}

}
