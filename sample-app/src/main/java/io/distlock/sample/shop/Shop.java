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
import java.util.concurrent.TimeUnit;

import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.annotation.DistributedLocked;
import io.distlock.sample.SampleProperties;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Service;

/**
 * The shop's operations. {@link #purchase} and {@link #purchaseUnlocked} run the same
 * non-atomic read-modify-write of the stock; only the first is guarded by
 * {@link DistributedLocked @DistributedLocked}.
 */
@Service
public class Shop {

	private static final Log logger = LogFactory.getLog(Shop.class);

	private final Inventory inventory;

	private final SampleProperties properties;

	/**
	 * Create the shop.
	 * @param inventory the shop's data
	 * @param properties the sample's settings
	 */
	public Shop(Inventory inventory, SampleProperties properties) {
		this.inventory = inventory;
		this.properties = properties;
	}

	/**
	 * Sell one unit, holding the product's lock ({@code product:<id>}): at most one
	 * purchase or stocktake of a product runs at a time, across all nodes. The key says
	 * what it locks, so it never collides with another lock on the same id, such as an
	 * order's.
	 * @param productId the product
	 * @return the purchase, with the lock's fencing token
	 * @throws SoldOutException if no stock is left
	 * @throws StaleFencingTokenException if the lock expired before the stock was written
	 * and a later holder has written it since
	 * @throws io.distlock.LockAcquisitionException if the lock stayed busy for 5 seconds
	 */
	@DistributedLocked(key = "'product:' + #productId", ttl = "10s", waitTime = "5s")
	public Purchase purchase(long productId) {
		long fencingToken = LockContext.current().orElseThrow().fencingToken();
		return sell(productId, fencingToken);
	}

	/**
	 * Sell one unit without any lock: concurrent purchases of a product overwrite each
	 * other's stock updates and sell more than there is.
	 * @param productId the product
	 * @return the purchase
	 * @throws SoldOutException if no stock is left
	 */
	public Purchase purchaseUnlocked(long productId) {
		return sell(productId, null);
	}

	/**
	 * Count a product's stock and orders: slow work ({@code sample.stocktake-duration}, 5
	 * seconds by default) under the product's lock, whose ttl
	 * ({@code sample.stocktake-ttl}, 2 seconds by default) it outlasts. The lease is
	 * renewed while the work runs, so purchases of the product wait until it is done.
	 * Every second it asks Redis whether the lock is still held, and logs the answer.
	 * @param productId the product
	 * @return what was counted, and whether every check found the lock held
	 */
	@DistributedLocked(key = "'product:' + #productId", ttl = "${sample.stocktake-ttl}", waitTime = "5s")
	public Stocktake stocktake(long productId) {
		LockHandle lock = LockContext.current().orElseThrow();
		long start = System.nanoTime();
		long seconds = this.properties.stocktakeDuration().toSeconds();
		boolean heldThroughout = true;
		for (long second = 1; second <= seconds; second++) {
			sleep(Duration.ofSeconds(1));
			boolean held = lock.isHeld();
			heldThroughout &= held;
			logger.info("Stocktake of product " + productId + ": " + second + " s of " + seconds + " s, lock '"
					+ lock.key() + "' held: " + held + " (ttl " + this.properties.stocktakeTtl().toMillis() + " ms)");
		}
		Product product = this.inventory.get(productId);
		long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
		return new Stocktake(productId, product.stock(), product.sold(), lock.fencingToken(), heldThroughout, took,
				this.properties.node());
	}

	// Deliberately not atomic: read the stock, think, write stock - 1. Two purchases that
	// read the same stock both sell, and both write the same new stock. Under the lock,
	// the write carries its fencing token: should the lock expire before it, the write is
	// rejected once a later holder has written.
	private Purchase sell(long productId, @Nullable Long fencingToken) {
		int stock = this.inventory.readStock(productId);
		if (stock <= 0) {
			throw new SoldOutException(productId);
		}
		sleep(this.properties.thinkTime());
		if (fencingToken != null) {
			this.inventory.writeStock(productId, stock - 1, fencingToken);
		}
		else {
			this.inventory.writeStock(productId, stock - 1);
		}
		long orderNumber = this.inventory.addOrder(productId, this.properties.node(), fencingToken);
		return new Purchase(productId, orderNumber, stock - 1, fencingToken, this.properties.node());
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
	}

}
