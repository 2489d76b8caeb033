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

package io.distlock.docs

import io.distlock.test.RedisServerExtension
import java.util.concurrent.ConcurrentHashMap
import kotlin.time.Duration.Companion.milliseconds
import kotlin.time.Duration.Companion.seconds
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.delay
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Import
import org.springframework.test.annotation.DirtiesContext
import org.springframework.test.context.DynamicPropertyRegistry
import org.springframework.test.context.DynamicPropertySource

/**
 * Runs the README's coroutine example, [InventoryService], on a real redis-server.
 */
@SpringBootTest(classes = [InventoryServiceIntegrationTests.TestApplication::class])
@DirtiesContext
class InventoryServiceIntegrationTests {

	@Autowired
	private lateinit var inventory: InventoryService

	@Autowired
	private lateinit var warehouse: SlowWarehouse

	@Test
	fun concurrentReservationsNeverSellMoreThanTheStock(): Unit = runBlocking {
		// Given: 10 in stock, behind a warehouse whose calls suspend for a while.
		warehouse.stock["sku-1"] = 10

		// When: 25 reservations of one each run at once.
		val outcomes = withTimeout(60.seconds) {
			(1..25).map { async(Dispatchers.Default) { runCatching { inventory.reserve("sku-1", 1) } } }.awaitAll()
		}

		// Then: exactly 10 succeed; read-then-write never interleaved.
		assertThat(outcomes.count { it.isSuccess }).isEqualTo(10)
		assertThat(outcomes.filter { it.isFailure }.map { it.exceptionOrNull()?.message })
			.containsOnly("Only 0 of sku-1 left")
		assertThat(warehouse.stock["sku-1"]).isEqualTo(0)
		assertThat(redis.endpoint().command("EXISTS", "lock:sku-1")).isEqualTo(0L)
	}

	/**
	 * A warehouse in memory whose calls suspend, as a remote one's would.
	 */
	class SlowWarehouse : Warehouse {

		val stock = ConcurrentHashMap<String, Int>()

		override suspend fun available(sku: String): Int {
			delay(5.milliseconds)
			return stock.getValue(sku)
		}

		override suspend fun update(sku: String, available: Int) {
			delay(5.milliseconds)
			stock[sku] = available
		}

	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(InventoryService::class)
	class TestApplication {

		@Bean
		fun warehouse() = SlowWarehouse()

	}

	companion object {

		@JvmField
		@RegisterExtension
		val redis: RedisServerExtension = RedisServerExtension.singleNode()

		@JvmStatic
		@DynamicPropertySource
		fun redisProperties(registry: DynamicPropertyRegistry) {
			registry.add("spring.data.redis.host") { redis.endpoint().host() }
			registry.add("spring.data.redis.port") { redis.endpoint().port() }
		}

	}

}
