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

import java.time.Duration;
import java.util.List;

import io.distlock.sample.shop.LockExceptionHandler;
import io.distlock.sample.shop.Product;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RaceResult}.
 */
class RaceResultTests {

	@Test
	void consistent() {
		RaceResult race = race(new Product(1, "p", 50, 0, 50, 0));
		assertThat(race.oversold()).isZero();
		assertThat(race.lostUpdates()).isZero();
	}

	@Test
	void oversoldWithLostUpdates() {
		// 200 orders, but the stock counter only went from 50 to 45.
		RaceResult race = race(new Product(1, "p", 50, 45, 200, 0));
		assertThat(race.oversold()).isEqualTo(150);
		assertThat(race.lostUpdates()).isEqualTo(195);
	}

	@Test
	void lockBusyAndSoldOutAreToldApartByTheProblemType() {
		RaceResult race = new RaceResult("purchase", 3,
				List.of(new Sale("node-1", 200, null, 1L, null),
						new Sale("node-1", 409, LockExceptionHandler.LOCK_BUSY.toString(), null, null),
						new Sale("node-2", 409, "about:blank", null, null)),
				new Product(1, "p", 1, 0, 1, 0), List.of(), Duration.ZERO);
		assertThat(race.sold()).isOne();
		assertThat(race.lockBusy()).isOne();
		assertThat(race.soldOut()).isOne();
		assertThat(race.failed()).isZero();
	}

	private static RaceResult race(Product product) {
		return new RaceResult("purchase", 0, List.of(), product, List.of(), Duration.ZERO);
	}

}
