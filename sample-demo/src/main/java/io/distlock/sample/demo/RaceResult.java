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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.distlock.sample.shop.Order;
import io.distlock.sample.shop.Product;

/**
 * The outcome of one race: many buyers at once for one product's stock.
 *
 * @param endpoint the purchase endpoint raced, such as {@code purchase}
 * @param buyers how many purchases were sent
 * @param sales what each buyer got back
 * @param product the product after the race, as stored
 * @param orders the orders stored, in the order they were recorded
 * @param took from the first request sent to the last answer
 */
public record RaceResult(String endpoint, int buyers, List<Sale> sales, Product product, List<Order> orders,
		Duration took) {

	/**
	 * Return how many purchases succeeded (HTTP 200).
	 * @return the units sold
	 */
	public long sold() {
		return this.sales.stream().filter(Sale::sold).count();
	}

	/**
	 * Return how many purchases found the product sold out (HTTP 409).
	 * @return the sold-out answers
	 */
	public long soldOut() {
		return this.sales.stream().filter(Sale::soldOut).count();
	}

	/**
	 * Return how many purchases gave up waiting for the lock (HTTP 409, lock busy).
	 * @return the lock-busy answers
	 */
	public long lockBusy() {
		return this.sales.stream().filter(Sale::lockBusy).count();
	}

	/**
	 * Return how many purchases failed otherwise: no answer, or another status, such as
	 * 503 for a lock store that failed.
	 * @return the failures
	 */
	public long failed() {
		return this.sales.size() - sold() - soldOut() - lockBusy();
	}

	/**
	 * Return how many more units were sold than were ever in stock.
	 * @return the oversold units, or zero
	 */
	public long oversold() {
		return Math.max(0, this.product.sold() - this.product.received());
	}

	/**
	 * Return how many sales the stock counter missed: {@code received - stock} should be
	 * the orders stored, and each sale that wrote a stock value another sale had already
	 * written is missing from it.
	 * @return the lost stock updates, or zero
	 */
	public long lostUpdates() {
		return Math.max(0, this.product.sold() - (this.product.received() - this.product.stock()));
	}

	/**
	 * Return how many sales each node made, in node order.
	 * @param nodes the node names
	 * @return the sales by node
	 */
	public Map<String, Long> salesByNode(List<String> nodes) {
		Map<String, Long> result = new LinkedHashMap<>();
		nodes.forEach((node) -> result.put(node,
				this.sales.stream().filter((sale) -> sale.sold() && sale.node().equals(node)).count()));
		return result;
	}

	/**
	 * Return the fencing tokens of the stored orders, in the order they were recorded.
	 * @return the fencing tokens (none for unlocked purchases)
	 */
	public List<Long> fencingTokens() {
		return this.orders.stream().map(Order::fencingToken).filter(Objects::nonNull).toList();
	}

	/**
	 * Return whether every order has a fencing token, each larger than the one before.
	 * @return whether the tokens strictly increase in sale order
	 */
	public boolean fencingTokensIncrease() {
		List<Long> tokens = fencingTokens();
		if (tokens.size() != this.orders.size()) {
			return false;
		}
		for (int i = 1; i < tokens.size(); i++) {
			if (tokens.get(i) <= tokens.get(i - 1)) {
				return false;
			}
		}
		return true;
	}

}
