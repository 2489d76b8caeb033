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

import io.distlock.sample.shop.LockExceptionHandler;
import org.jspecify.annotations.Nullable;

/**
 * What one buyer got back.
 *
 * @param node the node the buyer asked
 * @param status the HTTP status, or 0 if the request failed
 * @param problemType the {@code type} of the problem detail a refused purchase was
 * answered with, if any
 * @param fencingToken the fencing token of a locked purchase
 * @param error why the request failed
 */
public record Sale(String node, int status, @Nullable String problemType, @Nullable Long fencingToken,
		@Nullable String error) {

	/**
	 * Return whether the buyer got the unit (HTTP 200).
	 * @return whether the purchase succeeded
	 */
	public boolean sold() {
		return this.status == 200;
	}

	/**
	 * Return whether the purchase was refused because the product's lock stayed busy for
	 * its whole wait time (HTTP 409 with the shop's lock-busy problem type).
	 * @return whether the lock was busy
	 */
	public boolean lockBusy() {
		return this.status == 409 && LockExceptionHandler.LOCK_BUSY.toString().equals(this.problemType);
	}

	/**
	 * Return whether the purchase found the product sold out (HTTP 409, another problem
	 * type).
	 * @return whether the product was sold out
	 */
	public boolean soldOut() {
		return this.status == 409 && !lockBusy();
	}

}
