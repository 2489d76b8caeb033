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
 * A product of the shop, as stored in Redis.
 *
 * @param id the product id
 * @param name the product name
 * @param received how many units were put in stock
 * @param stock how many units the stock counter says are left
 * @param sold how many orders were accepted
 * @param staleWritesRejected how many stock writes were rejected because their fencing
 * token was lower than one already accepted
 */
public record Product(long id, String name, int received, int stock, long sold, long staleWritesRejected) {

}
