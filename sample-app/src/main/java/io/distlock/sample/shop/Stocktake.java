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
 * The result of a stocktake: a long piece of work done under the product's lock.
 *
 * @param productId the product counted
 * @param stock the stock counted
 * @param sold the orders counted
 * @param fencingToken the fencing token of the lock held while counting
 * @param heldThroughout whether every one-second check found the lock still held
 * @param tookMillis how long the work took
 * @param node the node that did it
 */
public record Stocktake(long productId, int stock, long sold, long fencingToken, boolean heldThroughout,
		long tookMillis, String node) {

}
