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

import io.distlock.test.RedisEndpoint;
import io.distlock.test.autoconfigure.AutoConfigureRedisServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Integration tests for {@link Inventory}'s fenced stock write against a real
 * redis-server, started by {@link AutoConfigureRedisServer @AutoConfigureRedisServer}.
 */
@SpringBootTest
@AutoConfigureRedisServer
class InventoryIntegrationTests {

	// Where RedisFencedWrites keeps the last accepted token of the stock.
	private static final String FENCE = "shop:product:{1}:stock\u0000distlock-fence";

	@Autowired
	private RedisEndpoint redis;

	@Autowired
	private Inventory inventory;

	@BeforeEach
	void stockAProduct() {
		// The fence outlives a restock, so start each test from an empty Redis.
		this.redis.flushAll();
		this.inventory.put(1, new NewProduct("Espresso machine", 50));
	}

	@Test
	void writeWithALowerFencingTokenThanTheLastAcceptedIsRejectedAndCounted() {
		this.inventory.writeStock(1, 49, 1_000);
		assertThatExceptionOfType(StaleFencingTokenException.class)
			.isThrownBy(() -> this.inventory.writeStock(1, 48, 999))
			.withMessage("Rejected a stale write of product 1's stock: fencing token 999 is lower than 1000, "
					+ "the last one accepted for it")
			.satisfies((ex) -> assertThat(ex.getLastAcceptedToken()).isEqualTo(1_000));
		Product product = this.inventory.get(1);
		assertThat(product.stock()).isEqualTo(49);
		assertThat(product.staleWritesRejected()).isOne();
		assertThat(this.redis.command("GET", FENCE)).isEqualTo("1000");
	}

	@Test
	void writesWithTheSameOrAHigherFencingTokenAreAccepted() {
		this.inventory.writeStock(1, 49, 1_000);
		this.inventory.writeStock(1, 48, 1_000);
		this.inventory.writeStock(1, 47, 1_001);
		assertThat(this.inventory.get(1).stock()).isEqualTo(47);
		assertThat(this.inventory.get(1).staleWritesRejected()).isZero();
		assertThat(this.redis.command("GET", FENCE)).isEqualTo("1001");
	}

	@Test
	void tokensAreComparedExactlyBeyondTheDoublePrecisionOfLua() {
		// As doubles, 2^53 + 1 and 2^53 are equal, and the stale write would pass.
		long token = (1L << 53) + 1;
		this.inventory.writeStock(1, 49, token);
		assertThatExceptionOfType(StaleFencingTokenException.class)
			.isThrownBy(() -> this.inventory.writeStock(1, 48, token - 1));
		this.inventory.writeStock(1, 47, Long.MAX_VALUE);
		assertThat(this.inventory.get(1).stock()).isEqualTo(47);
	}

	@Test
	void restockingKeepsTheFenceAndResetsTheRejectedCount() {
		this.inventory.writeStock(1, 49, 1_000);
		assertThatExceptionOfType(StaleFencingTokenException.class)
			.isThrownBy(() -> this.inventory.writeStock(1, 48, 10));
		this.inventory.put(1, new NewProduct("Espresso machine", 50));
		assertThat(this.inventory.get(1).staleWritesRejected()).isZero();
		assertThatExceptionOfType(StaleFencingTokenException.class)
			.isThrownBy(() -> this.inventory.writeStock(1, 49, 999));
		assertThat(this.inventory.get(1).stock()).isEqualTo(50);
	}

	@Test
	void unfencedWriteIgnoresTheFence() {
		this.inventory.writeStock(1, 49, 1_000);
		this.inventory.writeStock(1, 10);
		assertThat(this.inventory.get(1).stock()).isEqualTo(10);
	}

}
