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

/**
 * Thrown when a write to a product's stock carries a lower fencing token than the last
 * write accepted for that product: the writer's lock expired meanwhile and a later holder
 * has written since, so the write is rejected rather than undo the newer one.
 */
public class StaleFencingTokenException extends RuntimeException {

	private final long productId;

	private final long fencingToken;

	private final long lastAcceptedToken;

	/**
	 * Create a new exception.
	 * @param productId the product whose stock was to be written
	 * @param fencingToken the token the rejected write carried
	 * @param lastAcceptedToken the token of the last accepted write
	 */
	public StaleFencingTokenException(long productId, long fencingToken, long lastAcceptedToken) {
		super("Rejected a stale write of product " + productId + "'s stock: fencing token " + fencingToken
				+ " is lower than " + lastAcceptedToken + ", the last one accepted for it");
		this.productId = productId;
		this.fencingToken = fencingToken;
		this.lastAcceptedToken = lastAcceptedToken;
	}

	/**
	 * Return the product whose stock was to be written.
	 * @return the product id
	 */
	public long getProductId() {
		return this.productId;
	}

	/**
	 * Return the fencing token the rejected write carried.
	 * @return the stale token
	 */
	public long getFencingToken() {
		return this.fencingToken;
	}

	/**
	 * Return the fencing token of the last write accepted for the product.
	 * @return the last accepted token
	 */
	public long getLastAcceptedToken() {
		return this.lastAcceptedToken;
	}

}
