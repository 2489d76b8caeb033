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

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.distlock.LockHandle;
import io.distlock.LockTemplate;
import io.distlock.test.assertion.LockAssert;
import io.distlock.test.autoconfigure.AutoConfigureRedisServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Integration tests for the locks {@link Shop} takes, on a real redis-server started by
 * {@link AutoConfigureRedisServer @AutoConfigureRedisServer} and checked with
 * {@link LockAssert}.
 */
@SpringBootTest(properties = "sample.stocktake-duration=1s")
@AutoConfigureRedisServer
class ShopIntegrationTests {

	@Autowired
	private Shop shop;

	@Autowired
	private Inventory inventory;

	@Autowired
	private LockTemplate locks;

	@BeforeEach
	void stockAProduct() {
		this.inventory.put(1, new NewProduct("Espresso machine", 50));
	}

	@Test
	void purchaseHoldsTheLockOfItsProduct() {
		LockAssert.assertThatLock("product:1").isHeldDuring(() -> this.shop.purchase(1));
	}

	@Test
	void stocktakeHoldsTheSameLockAsAPurchase() {
		LockAssert.assertThatLock("product:1").isHeldDuring(() -> this.shop.stocktake(1));
	}

	@Test
	void purchaseDoesNotWaitForALockOnTheBareId() throws Exception {
		// Such as an order service's @DistributedLocked(key = "#orderId") for order 1.
		try (LockHandle order = this.locks.tryAcquire("1", Duration.ofSeconds(30), Duration.ZERO).orElseThrow()) {
			Purchase purchase = CompletableFuture.supplyAsync(() -> this.shop.purchase(1)).get(3, TimeUnit.SECONDS);
			assertThat(purchase.stockLeft()).isEqualTo(49);
		}
	}

}
