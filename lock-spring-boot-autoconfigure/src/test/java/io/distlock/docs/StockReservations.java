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

package io.distlock.docs;

import java.time.Duration;
import java.util.List;

import io.distlock.LockRequest;
import io.distlock.annotation.DistributedLocked;
import io.distlock.reactive.ReactiveLockTemplate;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.ReactiveValueOperations;

/**
 * The README's reactive work under a lock: taken on subscription, held until the
 * publisher terminates.
 */
public class StockReservations {

	private final ReactiveLockTemplate lockTemplate;

	private final ReactiveStringRedisTemplate redis;

	public StockReservations(ReactiveLockTemplate lockTemplate, ReactiveStringRedisTemplate redis) {
		this.lockTemplate = lockTemplate;
		this.redis = redis;
	}

	@DistributedLocked(key = "'stock:' + #sku", ttl = "10s", waitTime = "5s")
	public Mono<Boolean> reserve(String sku, long quantity) {
		ReactiveValueOperations<String, String> stock = this.redis.opsForValue();
		// Read, then write, under one lock: no other reservation of this SKU runs
		// between.
		return stock.get("stock:" + sku)
			.map(Long::parseLong)
			.filter((available) -> available >= quantity)
			.flatMap((available) -> stock.set("stock:" + sku, String.valueOf(available - quantity)))
			.defaultIfEmpty(false);
	}

	public Flux<String> restock(List<String> skus, long quantity) {
		LockRequest request = LockRequest.of("restock", Duration.ofSeconds(30), Duration.ofSeconds(5));
		return this.lockTemplate.executeMany(request,
				(lock) -> Flux.fromIterable(skus)
					.concatMap((sku) -> this.redis.opsForValue()
						.increment("stock:" + sku, quantity)
						.map((level) -> sku + "=" + level + " (token " + lock.fencingToken() + ")")));
	}

}
