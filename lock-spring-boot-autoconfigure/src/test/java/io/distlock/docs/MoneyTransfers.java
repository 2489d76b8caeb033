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

import io.distlock.LockTemplate;
import io.distlock.MultiLockRequest;
import io.distlock.annotation.DistributedLocked;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ValueOperations;

/**
 * The README's several keys at once: a money transfer locks both accounts, an order locks
 * every SKU in it.
 */
public class MoneyTransfers {

	private final StringRedisTemplate redis;

	private final LockTemplate lockTemplate;

	public MoneyTransfers(StringRedisTemplate redis, LockTemplate lockTemplate) {
		this.redis = redis;
		this.lockTemplate = lockTemplate;
	}

	@DistributedLocked(keys = { "'account:' + #from", "'account:' + #to" }, ttl = "10s", waitTime = "5s")
	public void transfer(String from, String to, long amount) {
		ValueOperations<String, String> balances = this.redis.opsForValue();
		long available = Long.parseLong(balances.get("balance:" + from));
		if (available < amount) {
			throw new IllegalStateException("Not enough money on account " + from);
		}
		balances.set("balance:" + from, String.valueOf(available - amount));
		balances.increment("balance:" + to, amount);
	}

	@DistributedLocked(name = "sku", keys = "#order.lines.![sku]", ttl = "10s", waitTime = "5s")
	public void reserve(Order order) {
		for (Line line : order.lines()) {
			this.redis.opsForValue().decrement("stock:" + line.sku(), line.quantity());
		}
	}

	public long transferInCode(String from, String to, long amount) {
		MultiLockRequest request = MultiLockRequest.of(List.of("account:" + from, "account:" + to),
				Duration.ofSeconds(10), Duration.ofSeconds(5));
		return this.lockTemplate.executeAll(request, (locks) -> {
			transferUnlocked(from, to, amount);
			return locks.fencingToken("account:" + from);
		});
	}

	private void transferUnlocked(String from, String to, long amount) {
		this.redis.opsForValue().decrement("balance:" + from, amount);
		this.redis.opsForValue().increment("balance:" + to, amount);
	}

	public record Order(List<Line> lines) {

	}

	public record Line(String sku, long quantity) {

	}

}
