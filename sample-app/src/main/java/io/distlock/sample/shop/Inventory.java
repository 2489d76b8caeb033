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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.distlock.fencing.FencingTokenRejectedException;
import io.distlock.fencing.redis.RedisFencedWrites;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The shop's data in Redis, in the shop's own keys, one plain key per fact:
 * {@code shop:product:{<id>}:stock} is the stock counter, {@code ...:orders} the list of
 * accepted orders and {@code ...:stale-writes} the count of rejected stock writes; the
 * fencing token of the last accepted stock write is kept by distlock's
 * {@link RedisFencedWrites}, beside the stock. The product id is the keys' hash tag, so
 * that they share a slot on a Redis Cluster too.
 * <p>
 * Reading and writing the stock are separate commands on purpose: a purchase that reads
 * the stock, thinks and writes it back is the classic lost update, unless something keeps
 * two purchases of the same product apart. A lock does, as long as it is held; the
 * {@link #writeStock(long, int, long) fenced write} also rejects the write of a holder
 * whose lock expired before it wrote.
 */
@Component
public class Inventory {

	private final StringRedisTemplate redis;

	private final RedisFencedWrites fencedWrites;

	/**
	 * Create an inventory on the given Redis.
	 * @param redis the Redis template
	 */
	public Inventory(StringRedisTemplate redis) {
		this.redis = redis;
		this.fencedWrites = new RedisFencedWrites(redis.getRequiredConnectionFactory());
	}

	/**
	 * Stock a product, replacing whatever was stored for it and forgetting its orders and
	 * rejected writes. The last accepted fencing token is kept: fencing tokens only grow,
	 * so a write still under way with an older lock stays rejected.
	 * @param id the product id
	 * @param product the name and stock
	 * @return the product as stored
	 */
	public Product put(long id, NewProduct product) {
		this.redis.delete(List.of(key(id, "orders"), key(id, "stale-writes")));
		this.redis.opsForValue()
			.multiSet(Map.of(key(id, "name"), product.name(), key(id, "received"), Integer.toString(product.stock()),
					key(id, "stock"), Integer.toString(product.stock())));
		return get(id);
	}

	/**
	 * Stock a product unless it exists.
	 * @param id the product id
	 * @param product the name and stock
	 */
	public void putIfAbsent(long id, NewProduct product) {
		if (Boolean.TRUE.equals(this.redis.opsForValue().setIfAbsent(key(id, "name"), product.name()))) {
			put(id, product);
		}
	}

	/**
	 * Return a product.
	 * @param id the product id
	 * @return the product
	 * @throws ProductNotFoundException if it was never stocked
	 */
	public Product get(long id) {
		List<String> values = this.redis.opsForValue()
			.multiGet(List.of(key(id, "name"), key(id, "received"), key(id, "stock"), key(id, "stale-writes")));
		if (values == null || values.get(0) == null || values.get(1) == null || values.get(2) == null) {
			throw new ProductNotFoundException(id);
		}
		Long sold = this.redis.opsForList().size(key(id, "orders"));
		String staleWrites = values.get(3);
		return new Product(id, values.get(0), Integer.parseInt(values.get(1)), Integer.parseInt(values.get(2)),
				(sold != null) ? sold : 0, (staleWrites != null) ? Long.parseLong(staleWrites) : 0);
	}

	/**
	 * Read the stock counter.
	 * @param id the product id
	 * @return the stock
	 * @throws ProductNotFoundException if it was never stocked
	 */
	public int readStock(long id) {
		String stock = this.redis.opsForValue().get(key(id, "stock"));
		if (stock == null) {
			throw new ProductNotFoundException(id);
		}
		return Integer.parseInt(stock);
	}

	/**
	 * Overwrite the stock counter, unfenced: whoever writes last wins.
	 * @param id the product id
	 * @param stock the new stock
	 */
	public void writeStock(long id, int stock) {
		this.redis.opsForValue().set(key(id, "stock"), Integer.toString(stock));
	}

	/**
	 * Overwrite the stock counter for the holder of the product's lock, unless a write
	 * with a higher fencing token was accepted before: distlock's
	 * {@link RedisFencedWrites}, which checks the token and writes in one script, atomic
	 * in Redis.
	 * @param id the product id
	 * @param stock the new stock
	 * @param fencingToken the fencing token of the lock held, from
	 * {@link io.distlock.LockHandle#fencingToken()}
	 * @throws StaleFencingTokenException if the token is lower than the last one
	 * accepted; the write is then counted in {@link Product#staleWritesRejected()}
	 */
	public void writeStock(long id, int stock, long fencingToken) {
		try {
			this.fencedWrites.set(key(id, "stock"), Integer.toString(stock), fencingToken);
		}
		catch (FencingTokenRejectedException ex) {
			this.redis.opsForValue().increment(key(id, "stale-writes"));
			throw new StaleFencingTokenException(id, fencingToken, ex.getRecordedToken());
		}
	}

	/**
	 * Record an accepted order (an atomic {@code RPUSH}, so no order is ever lost).
	 * @param id the product id
	 * @param node the node that sold it
	 * @param fencingToken the fencing token of the lock held, or {@code null}
	 * @return the order number
	 */
	public long addOrder(long id, String node, @Nullable Long fencingToken) {
		String order = node + " " + ((fencingToken != null) ? fencingToken : "-");
		Long number = this.redis.opsForList().rightPush(key(id, "orders"), order);
		return (number != null) ? number : 0;
	}

	/**
	 * Return the accepted orders of a product, oldest first.
	 * @param id the product id
	 * @return the orders
	 */
	public List<Order> orders(long id) {
		List<String> orders = this.redis.opsForList().range(key(id, "orders"), 0, -1);
		List<Order> result = new ArrayList<>();
		if (orders != null) {
			for (String order : orders) {
				String[] parts = order.split(" ", 2);
				Long token = parts[1].equals("-") ? null : Long.valueOf(parts[1]);
				result.add(new Order(result.size() + 1, parts[0], token));
			}
		}
		return result;
	}

	private static String key(long id, String field) {
		return "shop:product:{" + id + "}:" + field;
	}

}
