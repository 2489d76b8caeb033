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

import io.distlock.annotation.DistributedLocked
import org.springframework.stereotype.Service

/**
 * The README's coroutine example: a `suspend` function holding its lock across the
 * suspensions of its calls to a remote warehouse.
 */
@Service
class InventoryService(private val warehouse: Warehouse) {

	@DistributedLocked(key = "#sku", ttl = "10s", waitTime = "5s")
	suspend fun reserve(sku: String, quantity: Int) {
		// No other instance changes this SKU's stock between the read and the write,
		// though this coroutine suspends (and frees its thread) on both calls.
		val available = warehouse.available(sku)
		require(available >= quantity) { "Only $available of $sku left" }
		warehouse.update(sku, available - quantity)
	}

}

/**
 * Stock levels behind a remote API.
 */
interface Warehouse {

	suspend fun available(sku: String): Int

	suspend fun update(sku: String, available: Int)

}
